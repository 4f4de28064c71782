package io.tern.server.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's table of {@code tern nostr} options is made from {@link NostrOptions}: this test
 * fails when they disagree. {@code -Dtern.readme.write=true} writes the table into the README.
 */
class ReadmeNostrOptionsTest {
    private static final String BEGIN =
            "<!-- nostr-options:begin (generated from NostrOptions by ReadmeNostrOptionsTest) -->";
    private static final String END = "<!-- nostr-options:end -->";

    @Test
    void readmeListsEveryOptionAsTheTableDoes() throws IOException {
        Path readme = Path.of("").toAbsolutePath().getParent().resolve("README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertThat(begin).as("%s in %s", BEGIN, readme).isNotNegative();
        assertThat(end).as("%s after the begin marker", END).isGreaterThan(begin);
        String generated = "\n" + table() + "\n";
        if (Boolean.getBoolean("tern.readme.write")) {
            Files.writeString(readme, text.substring(0, begin + BEGIN.length()) + generated + text.substring(end));
            return;
        }
        assertThat(text.substring(begin + BEGIN.length(), end))
                .as("README's nostr option table; regenerate with -Dtern.readme.write=true")
                .isEqualTo(generated);
    }

    static String table() {
        List<String> lines = new ArrayList<>();
        lines.add("| Option | Meaning | Default |");
        lines.add("|---|---|---|");
        for (NostrOptions.Row row : NostrOptions.all()) {
            lines.add("| `" + row.name() + "` | " + cell(row.help()) + " | " + cell(row.defaultText()) + " |");
        }
        return String.join("\n", lines);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
