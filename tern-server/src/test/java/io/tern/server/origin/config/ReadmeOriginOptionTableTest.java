package io.tern.server.origin.config;

import io.tern.server.config.ReadmeSection;
import io.tern.server.option.Option;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table of origin options in docs/origin.md is made from {@link OriginOptions}: this test fails when
 * they disagree. {@code ./mvnw -pl tern-server test -Dtest=ReadmeOriginOptionTableTest
 * -Dtern.readme.write=true} writes the table into docs/origin.md instead.
 */
class ReadmeOriginOptionTableTest {
    private static final String BEGIN =
            "<!-- origin-options:begin (generated from OriginOptions by ReadmeOriginOptionTableTest) -->";
    private static final String END = "<!-- origin-options:end -->";

    @Test
    void readmeListsEveryOriginOptionAsTheTableDoes() throws IOException {
        ReadmeSection.checkOrWrite(BEGIN, END, table(), "origin option table");
    }

    /** One line per option: its name, what it does (and whether a stream section may set it), its default. */
    static String table() {
        List<String> lines = new ArrayList<>();
        lines.add("| Option | Meaning | Default |");
        lines.add("|---|---|---|");
        for (Option<?> option : OriginOptions.all()) {
            lines.add("| `" + option.name() + "` | " + ReadmeSection.cell(option.meaning()) + " | "
                    + ReadmeSection.cell(option.defaultText()) + " |");
        }
        return String.join("\n", lines);
    }
}
