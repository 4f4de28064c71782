package io.tern.server.option;

/**
 * How the text of an option becomes its value, and back, with its validation. The same type reads
 * the command line and the configuration file, writes {@code --print-config} and states the
 * default in help and the README. The factories are in {@link OptionTypes}.
 *
 * @param <V> the value an option of this type holds
 */
public interface OptionType<V> {
    /**
     * The value of {@code text}.
     *
     * @throws IllegalArgumentException whose message says what the value must be ("must be 1-65535");
     *     {@link Option#parse} adds the option, the value and where it was written
     */
    V parse(String text);

    /** The text that parses back to {@code value}. */
    String format(V value);

    /** The value's name in help, {@code <port>}; for an on/off option {@code <on|off>}. */
    String paramLabel();

    /** An on/off option: given alone it means on ({@code --record}, or a bare {@code record} line). */
    default boolean flag() {
        return false;
    }
}
