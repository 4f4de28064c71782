package io.tern.server.nostr;

import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigLines;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code tern nostr -c FILE} ({@link ConfigLines}' syntax, no sections): the names of
 * {@link NostrOptions}. An unknown name is an error naming the file and line.
 */
final class NostrConfigFile {
    private NostrConfigFile() {}

    static List<Occurrence> read(Path file) {
        List<Occurrence> entries = new ArrayList<>();
        ConfigLines.parse(file.toString(), ConfigLines.read(file), (name, value, source) -> {
            Option<?> row = NostrOptions.find(name);
            if (row == null) {
                throw new ConfigException("Unknown option '" + name + "' " + source.where());
            }
            entries.add(new Occurrence(row, value, source));
        });
        return entries;
    }
}
