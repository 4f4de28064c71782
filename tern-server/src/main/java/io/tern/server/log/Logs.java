package io.tern.server.log;

import java.util.Locale;
import java.util.Optional;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How every server logs: java.util.logging (which {@code System.Logger} writes to, and Netty too)
 * with one handler on the root logger and the {@link OneLineFormatter}. A command's {@code
 * --log-level} (see {@link LogLevelOption}) is requested here before its launcher starts, and the
 * launcher installs the requested level over the one it would pick itself (the origin reads its
 * {@code log-level} from its own options).
 */
public final class Logs {
    /** The {@code --log-level} values, the origin's {@code log-level} among them. */
    public static final String LEVELS = "warning, info, debug";

    private static volatile Level requested;

    private Logs() {}

    /** {@code warning}, {@code info} or {@code debug} (any case) as a java.util.logging level. */
    public static Level parseLevel(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "warning" -> Level.WARNING;
            case "info" -> Level.INFO;
            case "debug" -> Level.FINE;
            default ->
                throw new IllegalArgumentException(
                        "'" + text + "' is not a log level (expected one of " + LEVELS + ")");
        };
    }

    /** Records the command line's {@code --log-level}, or clears it with null. */
    public static void request(Level level) {
        requested = level;
    }

    /** The command line's {@code --log-level}, if it gave one. */
    public static Optional<Level> requested() {
        return Optional.ofNullable(requested);
    }

    /** Logs to standard error at {@code level}. */
    public static void installConsole(Level level) {
        install(level, new ConsoleHandler());
    }

    /** Makes {@code handler}, with the one-line format, the root logger's only handler, at {@code level}. */
    public static void install(Level level, Handler handler) {
        Logger root = Logger.getLogger("");
        for (Handler old : root.getHandlers()) {
            root.removeHandler(old);
        }
        root.setLevel(level);
        handler.setLevel(level);
        handler.setFormatter(new OneLineFormatter());
        root.addHandler(handler);
    }
}
