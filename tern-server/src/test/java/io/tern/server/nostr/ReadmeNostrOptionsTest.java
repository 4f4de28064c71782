package io.tern.server.nostr;

import io.tern.server.config.ReadmeSection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table of {@code tern nostr} options in docs/nostr.md is made from {@link NostrOptions}: this test
 * fails when they disagree. {@code -Dtern.readme.write=true} writes the table into docs/nostr.md.
 */
class ReadmeNostrOptionsTest {
    private static final String BEGIN =
            "<!-- nostr-options:begin (generated from NostrOptions by ReadmeNostrOptionsTest) -->";
    private static final String END = "<!-- nostr-options:end -->";

    @Test
    void readmeListsEveryOptionAsTheTableDoes() throws IOException {
        ReadmeSection.checkOrWrite(BEGIN, END, table(), "nostr option table");
    }

    static String table() {
        List<String> lines = new ArrayList<>();
        lines.add("| Option | Meaning | Default |");
        lines.add("|---|---|---|");
        for (io.tern.server.option.Option<?> row : NostrOptions.all()) {
            lines.add("| `" + row.name() + "` | " + ReadmeSection.cell(row.meaning()) + " | "
                    + ReadmeSection.cell(row.defaultText()) + " |");
        }
        return String.join("\n", lines);
    }
}
