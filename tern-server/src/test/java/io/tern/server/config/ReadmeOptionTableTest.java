package io.tern.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.config.OptionDef.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's table of options is made from the option table: this test fails when they
 * disagree. {@code ./mvnw -pl tern-server test -Dtest=ReadmeOptionTableTest -Dtern.readme.write=true}
 * writes the table into the README instead.
 */
class ReadmeOptionTableTest {
    private static final String BEGIN =
            "<!-- options:begin (generated from CoturnOptions by ReadmeOptionTableTest) -->";
    private static final String END = "<!-- options:end -->";

    @Test
    void readmeListsEverySupportedOptionAsTheTableDoes() throws IOException {
        Path readme = Path.of("").toAbsolutePath().getParent().resolve("README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertThat(begin).as("%s in %s", BEGIN, readme).isNotNegative();
        assertThat(end).as("%s after the begin marker", END).isGreaterThan(begin);
        String current = text.substring(begin + BEGIN.length(), end);
        String generated = "\n" + table() + "\n";
        if (Boolean.getBoolean("tern.readme.write")) {
            Files.writeString(readme, text.substring(0, begin + BEGIN.length()) + generated + text.substring(end));
            return;
        }
        assertThat(current)
                .as("README's option table; regenerate with -Dtern.readme.write=true")
                .isEqualTo(generated);
    }

    /** One line per supported option: its names, what it does, its default. */
    static String table() {
        List<String> lines = new ArrayList<>();
        lines.add("| Option | Meaning | Default |");
        lines.add("|---|---|---|");
        for (OptionDef<?> option : CoturnOptions.withStatus(Status.SUPPORTED)) {
            List<String> names = new ArrayList<>();
            names.add("`" + option.name() + "`");
            option.aliases().forEach(alias -> names.add("`" + alias + "`"));
            if (option.shortFlag() != null) {
                names.add("`" + option.shortFlag() + "`");
            }
            lines.add("| " + String.join(", ", names) + " | " + cell(option.description()) + " | "
                    + cell(option.defaultText())
                    + " |");
        }
        return String.join("\n", lines);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
