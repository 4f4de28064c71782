package io.tern.server.config;

/**
 * Receives start-up warnings (unsupported coturn options, suspicious combinations).
 * Injectable so that tests capture warnings without scraping logs.
 */
@FunctionalInterface
public interface WarningSink {
    void warn(String message);

    /** Logs each warning through {@link System.Logger} at WARNING level. */
    static WarningSink systemLogger() {
        final System.Logger logger = System.getLogger("io.tern.server.config");
        return message -> logger.log(System.Logger.Level.WARNING, message);
    }
}
