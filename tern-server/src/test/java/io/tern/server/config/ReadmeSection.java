package io.tern.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A part of the repository's documentation (the README or a guide in {@code docs/}) between two
 * comment markers that is generated from code: a test checks it, and with {@code
 * -Dtern.readme.write=true} writes it instead. The file is the one that holds the begin marker, so a
 * table moves between guides with its markers and the test follows it.
 */
public final class ReadmeSection {
    private ReadmeSection() {}

    /** Fails unless the document holding {@code begin} holds {@code generated} between it and {@code end}. */
    public static void checkOrWrite(String begin, String end, String generated, String what) throws IOException {
        Path readme = documentHolding(begin);
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        assertThat(from).as("%s in %s", begin, readme).isNotNegative();
        assertThat(to).as("%s after the begin marker", end).isGreaterThan(from);
        String section = "\n" + generated + "\n";
        if (Boolean.getBoolean("tern.readme.write")) {
            Files.writeString(readme, text.substring(0, from + begin.length()) + section + text.substring(to));
            return;
        }
        assertThat(text.substring(from + begin.length(), to))
                .as("%s in %s; regenerate with -Dtern.readme.write=true", what, readme.getFileName())
                .isEqualTo(section);
    }

    /** The one file of README.md and docs/*.md that holds {@code marker}. */
    static Path documentHolding(String marker) throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<Path> candidates = new ArrayList<>();
        candidates.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(candidates::add);
        }
        List<Path> holders = new ArrayList<>();
        for (Path candidate : candidates) {
            if (Files.readString(candidate, StandardCharsets.UTF_8).contains(marker)) {
                holders.add(candidate);
            }
        }
        assertThat(holders).as("documents holding %s", marker).hasSize(1);
        return holders.get(0);
    }

    /** Text made safe for a Markdown table cell. */
    public static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
