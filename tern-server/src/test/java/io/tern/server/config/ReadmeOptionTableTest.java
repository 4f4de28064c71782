package io.tern.server.config;

import io.tern.server.option.Option;
import io.tern.server.option.Option.Status;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table of options in docs/turn.md is made from the option table: this test fails when they
 * disagree. {@code ./mvnw -pl tern-server test -Dtest=ReadmeOptionTableTest -Dtern.readme.write=true}
 * writes the table into docs/turn.md instead.
 */
class ReadmeOptionTableTest {
    private static final String BEGIN =
            "<!-- options:begin (generated from CoturnOptions by ReadmeOptionTableTest) -->";
    private static final String END = "<!-- options:end -->";

    @Test
    void readmeListsEverySupportedOptionAsTheTableDoes() throws IOException {
        ReadmeSection.checkOrWrite(BEGIN, END, table(), "option table");
    }

    /** One line per supported option: its names, what it does, its default. */
    static String table() {
        List<String> lines = new ArrayList<>();
        lines.add("| Option | Meaning | Default |");
        lines.add("|---|---|---|");
        for (Option<?> option : CoturnOptions.withStatus(Status.SUPPORTED)) {
            List<String> names = new ArrayList<>();
            names.add("`" + option.name() + "`");
            option.aliases().forEach(alias -> names.add("`" + alias + "`"));
            if (option.shortFlag() != null) {
                names.add("`" + option.shortFlag() + "`");
            }
            lines.add("| " + String.join(", ", names) + " | " + ReadmeSection.cell(option.meaning()) + " | "
                    + ReadmeSection.cell(option.defaultText())
                    + " |");
        }
        return String.join("\n", lines);
    }
}
