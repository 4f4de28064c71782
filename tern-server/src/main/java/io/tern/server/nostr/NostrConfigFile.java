package io.tern.server.nostr;

import io.tern.server.config.ConfigException;
import io.tern.server.config.ConfigLines;
import io.tern.server.config.ConfigSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code tern nostr -c FILE} ({@link ConfigLines}' syntax, no sections): the names of
 * {@link NostrOptions}. An unknown name is an error naming the file and line.
 */
final class NostrConfigFile {
    /** One line's option, its value, and where it was written. */
    record Entry(NostrOptions.Row row, String value, ConfigSource source) {}

    private NostrConfigFile() {}

    static List<Entry> read(Path file) {
        List<Entry> entries = new ArrayList<>();
        ConfigLines.parse(file.toString(), ConfigLines.read(file), (name, value, source) -> {
            NostrOptions.Row row = NostrOptions.find(name);
            if (row == null) {
                throw new ConfigException("Unknown option '" + name + "' " + source.where());
            }
            entries.add(new Entry(row, value, source));
        });
        return entries;
    }
}
