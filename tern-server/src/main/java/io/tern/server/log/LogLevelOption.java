package io.tern.server.log;

import java.util.logging.Level;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * {@code --log-level warning|info|debug}, mixed into a command ({@code @Mixin}). The command calls
 * {@link #request()} before it launches, so the launcher's {@link Logs#install} uses it.
 */
public final class LogLevelOption {
    @Option(
            names = "--log-level",
            paramLabel = "<level>",
            order = 999,
            converter = LevelConverter.class,
            description = "What is logged: warning, info or debug. Default: the command's own (info).")
    private Level level;

    /** Hands the option's level, or its absence, to {@link Logs}. */
    public void request() {
        Logs.request(level);
    }

    /** The level given on the command line, or null. */
    public Level level() {
        return level;
    }

    static final class LevelConverter implements ITypeConverter<Level> {
        @Override
        public Level convert(String value) {
            return Logs.parseLevel(value);
        }
    }
}
