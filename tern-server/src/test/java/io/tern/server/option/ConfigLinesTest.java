package io.tern.server.option;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The line syntax the origin's and the Nostr relay's -c files share. */
class ConfigLinesTest {
    @TempDir
    Path dir;

    private static List<String> settings(List<String> lines) {
        List<String> out = new ArrayList<>();
        ConfigLines.parse("x.conf", lines, (name, value, source) -> out.add(name + "|" + value + "|" + source));
        return out;
    }

    @Test
    void everyFormOfALineGivesItsNameValueAndLine() {
        assertThat(settings(List.of(
                        "# a comment",
                        "",
                        "  http-port = 8080  ",
                        "port=7000",
                        "name  The relay = mine",
                        "prometheus",
                        "--auth write",
                        "publish-secret = a=b")))
                .containsExactly(
                        "http-port|8080|x.conf:3",
                        "port|7000|x.conf:4",
                        "name|The relay = mine|x.conf:5",
                        "prometheus||x.conf:6",
                        "auth|write|x.conf:7",
                        "publish-secret|a=b|x.conf:8");
    }

    @Test
    void sectionsGoToTheHandlerAndAFileWithoutSectionsRefusesThem() {
        List<String> sections = new ArrayList<>();
        ConfigLines.parse("x.conf", List.of("a = 1", "[stream cam1]", "b = 2"), new ConfigLines.Handler() {
            @Override
            public void setting(String name, String value, ConfigSource source) {
                sections.add(name);
            }

            @Override
            public void section(String line, ConfigSource source) {
                sections.add(line + "@" + source.line());
            }
        });
        assertThat(sections).containsExactly("a", "[stream cam1]@2", "b");
        assertThatThrownBy(() -> settings(List.of("port = 1", "[stream cam1]")))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        "Unexpected section header '[stream cam1]' in x.conf:2 (this file has one option per line)");
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("none.conf");
        assertThatThrownBy(() -> ConfigLines.read(missing))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Cannot read the configuration file " + missing + ": no such file");
    }
}
