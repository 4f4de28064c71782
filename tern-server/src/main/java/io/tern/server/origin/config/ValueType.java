package io.tern.server.origin.config;

/**
 * How the text of an origin option becomes its value and back, with its validation. The same
 * type reads the command line and the configuration file, and writes {@code --print-config}.
 *
 * @param <V> the value an option of this type holds
 */
public interface ValueType<V> {
    /**
     * The value of {@code text}.
     *
     * @throws IllegalArgumentException whose message says what the value must be ("must be 1-65535")
     */
    V parse(String text);

    /** The text that parses back to {@code value}. */
    String format(V value);

    /** The value's name in help, {@code <port>}; empty for flags. */
    String paramLabel();

    /** A flag: given alone it means on. */
    default boolean flag() {
        return false;
    }
}
