package io.tern.server.config;

import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads coturn's {@code turnserver.conf} format the way coturn's {@code read_config_file} and
 * {@code parse_arg_string} (src/apps/relay/mainrelay.c) do:
 * <ul>
 *   <li>leading blanks (space, tab) are skipped; a line whose first other character is {@code #}
 *       is a comment; blank lines are skipped; trailing white space is removed;</li>
 *   <li>the name ends at the first space, tab or {@code =}; all following spaces, tabs and
 *       {@code =} are skipped and the rest of the line is the value, so {@code name=value},
 *       {@code name value} and {@code name = value} are equal and a bare {@code name} has an
 *       empty value;</li>
 *   <li>a {@code #} after the start of a line is NOT a comment: {@code realm=a # b} sets the
 *       realm to {@code a # b} (checked against coturn 4.6.1);</li>
 *   <li>a value starting with {@code "} loses that quote and one trailing quote;</li>
 *   <li>a line ending with {@code ;} gets a warning, as in coturn.</li>
 * </ul>
 * Differences: a leading {@code --} on the name is tolerated (coturn rejects it), and an unknown
 * option name is an error (coturn 4.6.1 logs "Bad configuration format" and carries on).
 *
 * <p>The reader only splits and names; values are checked by {@link TurnServerConfigAssembler}.
 */
public final class CoturnConfigReader {
    private final WarningSink warnings;

    public CoturnConfigReader(final WarningSink warnings) {
        this.warnings = Objects.requireNonNull(warnings, "warnings");
    }

    /** Reads a file (UTF-8). I/O and decoding errors become {@link ConfigException}s. */
    public List<Occurrence> read(final Path file) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException ex) {
            throw new ConfigException("Cannot read configuration file '" + file + "': " + describe(ex));
        }
        return read(file.toString(), lines);
    }

    /** Parses already-read lines; {@code sourceName} appears in messages as {@code sourceName:line}. */
    public List<Occurrence> read(final String sourceName, final List<String> lines) {
        final List<Occurrence> values = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (i == 0 && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                line = line.substring(1);
            }
            final Occurrence value = parseLine(line, ConfigSource.file(sourceName, i + 1));
            if (value != null) {
                values.add(value);
            }
        }
        return values;
    }

    /** One line; {@code null} for blank lines and comments. */
    Occurrence parseLine(final String rawLine, final ConfigSource source) {
        int start = 0;
        while (start < rawLine.length() && isBlank(rawLine.charAt(start))) {
            start++;
        }
        int end = rawLine.length();
        while (end > start && isSpace(rawLine.charAt(end - 1))) {
            end--;
        }
        if (start == end || rawLine.charAt(start) == '#') {
            return null;
        }
        final String line = rawLine.substring(start, end);

        int nameEnd = 0;
        while (nameEnd < line.length() && !isSeparator(line.charAt(nameEnd))) {
            nameEnd++;
        }
        int valueStart = nameEnd;
        while (valueStart < line.length() && isSeparator(line.charAt(valueStart))) {
            valueStart++;
        }
        String name = line.substring(0, nameEnd);
        String value = line.substring(valueStart);

        if (name.startsWith("--")) {
            name = name.substring(2);
        }
        if (value.startsWith("\"")) {
            value = value.substring(1);
            if (value.endsWith("\"")) {
                value = value.substring(0, value.length() - 1);
            }
        }

        final Option<?> option = CoturnOptions.find(name);
        if (option == null) {
            throw new ConfigException("Unknown option '" + printable(name) + "' " + source.where());
        }
        if (line.endsWith(";")) {
            warnings.warn("Check config! Line ends with a semicolon " + source.where() + ": " + printable(line));
        }
        return new Occurrence(option, name, value, source, null);
    }

    /** coturn's skip_blanks: space and tab. */
    private static boolean isBlank(final char c) {
        return c == ' ' || c == '\t';
    }

    /** C isspace. */
    private static boolean isSpace(final char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\u000B' || c == '\f';
    }

    /** parse_arg_string's name/value separators. */
    private static boolean isSeparator(final char c) {
        return c == ' ' || c == '=' || c == '\t';
    }

    /** Keeps control characters out of messages. */
    static String printable(final String text) {
        final StringBuilder out = new StringBuilder(Math.min(text.length(), 200));
        for (int i = 0; i < text.length() && i < 200; i++) {
            final char c = text.charAt(i);
            out.append(Character.isISOControl(c) ? '?' : c);
        }
        if (text.length() > 200) {
            out.append("...");
        }
        return out.toString();
    }

    private static String describe(final IOException ex) {
        if (ex instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (ex instanceof java.nio.charset.CharacterCodingException) {
            return "not valid UTF-8";
        }
        return ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage());
    }
}
