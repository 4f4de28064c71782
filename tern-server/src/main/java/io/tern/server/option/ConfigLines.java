package io.tern.server.option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The line syntax {@code tern origin -c} and {@code tern nostr -c} share: one option per line,
 * {@code name = value}, {@code name=value}, {@code name value} or a bare {@code name} (an on/off
 * option), the name as on the command line with or without its dashes, {@code #} starting a
 * comment line. A line starting with {@code [} is a section header, which only the origin's files
 * have. Each command keeps its own option table and what a name means.
 */
public final class ConfigLines {
    /** What a file's lines are handed to, in file order. */
    public interface Handler {
        /** A line that sets {@code name} (without dashes) to {@code value} ({@code ""} when bare). */
        void setting(String name, String value, ConfigSource source);

        /** A {@code [...]} line, stripped; a file without sections refuses it. */
        default void section(String line, ConfigSource source) {
            throw new ConfigException("Unexpected section header '" + line + "' " + source.where()
                    + " (this file has one option per line)");
        }
    }

    private ConfigLines() {}

    /** The file's lines; an unreadable file stops start-up naming it. */
    public static List<String> read(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException("Cannot read the configuration file " + file + ": no such file");
        } catch (IOException e) {
            throw new ConfigException("Cannot read the configuration file " + file + ": " + e.getMessage());
        }
    }

    /** Hands every option line and section header of {@code lines}, read as {@code fileName}, to {@code handler}. */
    public static void parse(String fileName, List<String> lines, Handler handler) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            ConfigSource source = ConfigSource.file(fileName, i + 1);
            if (line.startsWith("[")) {
                handler.section(line, source);
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '=' && !Character.isWhitespace(line.charAt(end))) {
                end++;
            }
            String name = line.substring(0, end);
            String value = line.substring(end).strip();
            if (value.startsWith("=")) {
                value = value.substring(1).strip();
            }
            handler.setting(name.startsWith("--") ? name.substring(2) : name, value, source);
        }
    }
}
