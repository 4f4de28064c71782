package io.tern.server.option;

/**
 * A configuration value that stops start-up. The message always names the option, the
 * offending value and where it came from (file and line, or the command line).
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(final String message) {
        super(message);
    }

    /**
     * The standard form: {@code Invalid value for option 'min-port': '70000' (must be 1-65535) in x.conf:3}.
     */
    public static ConfigException invalidValue(
            final String option, final String value, final String reason, final ConfigSource source) {
        return new ConfigException(
                "Invalid value for option '" + option + "': '" + value + "' (" + reason + ") " + source.where());
    }
}
