package io.tern.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A generated section of the repository's README, between two marker comments: a test asserts it
 * matches what the code generates, or with {@code -Dtern.readme.write=true} writes it there.
 */
public final class ReadmeSection {
    private ReadmeSection() {}

    public static void assertMatches(String beginMarker, String endMarker, String generated) throws IOException {
        Path readme = Path.of("").toAbsolutePath().getParent().resolve("README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int begin = text.indexOf(beginMarker);
        int end = text.indexOf(endMarker);
        assertThat(begin).as("%s in %s", beginMarker, readme).isNotNegative();
        assertThat(end).as("%s after the begin marker", endMarker).isGreaterThan(begin);
        String section = "\n" + generated + "\n";
        if (Boolean.getBoolean("tern.readme.write")) {
            Files.writeString(readme, text.substring(0, begin + beginMarker.length()) + section + text.substring(end));
            return;
        }
        assertThat(text.substring(begin + beginMarker.length(), end))
                .as("README between %s and %s; regenerate with -Dtern.readme.write=true", beginMarker, endMarker)
                .isEqualTo(section);
    }

    /** Text made safe for a Markdown table cell. */
    public static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
