package io.tern.server.config;

import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Helpers shared by the config tests. */
final class ConfigTestSupport {
    private ConfigTestSupport() {}

    /** A sink that keeps every warning. */
    static final class RecordingWarnings implements WarningSink {
        final List<String> messages = new ArrayList<>();

        @Override
        public void warn(final String message) {
            messages.add(message);
        }
    }

    static Path resource(final String name) {
        try {
            return Path.of(ConfigTestSupport.class.getResource(name).toURI());
        } catch (final URISyntaxException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Command-line style occurrences: {@code cli("min-port", "1", "no-udp", "")}. */
    static List<Occurrence> cli(final String... nameValuePairs) {
        final List<Occurrence> values = new ArrayList<>();
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            final Option<?> option = CoturnOptions.find(nameValuePairs[i]);
            if (option == null) {
                throw new IllegalArgumentException(nameValuePairs[i]);
            }
            values.add(new Occurrence(option, nameValuePairs[i + 1], ConfigSource.commandLine()));
        }
        return values;
    }

    /** Config-file occurrences from inline text, named {@code test.conf}. */
    static List<Occurrence> file(final WarningSink warnings, final String... lines) {
        return new CoturnConfigReader(warnings).read("test.conf", List.of(lines));
    }
}
