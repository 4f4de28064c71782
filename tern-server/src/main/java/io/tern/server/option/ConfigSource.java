package io.tern.server.option;

import java.util.Objects;

/**
 * Where an option value came from, so that error messages can point at it.
 *
 * @param file   the configuration file, or {@code null} for the command line
 * @param line   1-based line number in {@code file}; 0 for the command line
 */
public record ConfigSource(String file, int line) {
    private static final ConfigSource COMMAND_LINE = new ConfigSource(null, 0);
    private static final ConfigSource DEFAULT = new ConfigSource("<default>", 0);

    public static ConfigSource commandLine() {
        return COMMAND_LINE;
    }

    /** A value Tern chose itself, not given by the operator. */
    public static ConfigSource defaultValue() {
        return DEFAULT;
    }

    public static ConfigSource file(final String file, final int line) {
        return new ConfigSource(Objects.requireNonNull(file, "file"), line);
    }

    public boolean isCommandLine() {
        return file == null;
    }

    /** "in /etc/turnserver.conf:12", "on the command line" or "by default". */
    public String where() {
        if (this == DEFAULT) {
            return "by default";
        }
        return isCommandLine() ? "on the command line" : "in " + file + ":" + line;
    }

    @Override
    public String toString() {
        return isCommandLine() ? "command line" : file + ":" + line;
    }
}
