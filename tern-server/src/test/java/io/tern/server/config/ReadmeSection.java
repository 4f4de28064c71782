package io.tern.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A part of the repository's README between two comment markers that is generated from code: a
 * test checks it, and with {@code -Dtern.readme.write=true} writes it instead.
 */
public final class ReadmeSection {
    private ReadmeSection() {}

    /** Fails unless the README holds {@code generated} between {@code begin} and {@code end}. */
    public static void checkOrWrite(String begin, String end, String generated, String what) throws IOException {
        Path readme = Path.of("").toAbsolutePath().getParent().resolve("README.md");
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
                .as("README's %s; regenerate with -Dtern.readme.write=true", what)
                .isEqualTo(section);
    }

    /** Text made safe for a Markdown table cell. */
    public static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
