package io.tern.server.nostr;

import io.tern.server.config.ConfigException;
import io.tern.server.config.ConfigSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code tern nostr -c FILE}: one option per line, {@code name=value} or {@code name value}
 * (a bare {@code name} for an on/off option), the names of {@link NostrOptions} without dashes,
 * {@code #} starting a comment line. An unknown name is an error naming the file and line.
 */
final class NostrConfigFile {
    /** One line's option, its value, and where it was written. */
    record Entry(NostrOptions.Row row, String value, ConfigSource source) {}

    private NostrConfigFile() {}

    static List<Entry> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("Cannot read configuration file '" + file + "': "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.toString()));
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            ConfigSource source = ConfigSource.file(file.toString(), i + 1);
            int end = 0;
            while (end < line.length() && line.charAt(end) != '=' && !Character.isWhitespace(line.charAt(end))) {
                end++;
            }
            String name = line.substring(0, end);
            String value = line.substring(end).strip();
            if (value.startsWith("=")) {
                value = value.substring(1).strip();
            }
            NostrOptions.Row row = NostrOptions.find(name.startsWith("--") ? name.substring(2) : name);
            if (row == null) {
                throw new ConfigException("Unknown option '" + name + "' " + source.where());
            }
            entries.add(new Entry(row, value, source));
        }
        return entries;
    }
}
