package io.tern.server.option;

import java.util.List;

/**
 * How the text of an option becomes its value, and back, with its validation. The same type reads
 * the command line and the configuration file, writes {@code --print-config} and states the
 * default in help and the README. The factories are in {@link OptionTypes}, and beside a table
 * for a grammar of its own ({@code io.tern.server.config.CoturnTypes} for coturn's).
 *
 * @param <V> the value an option of this type holds
 */
public interface OptionType<V> {
    /**
     * The value of {@code text}.
     *
     * @throws IllegalArgumentException whose message says what the value must be ("must be 1-65535");
     *     the table adds the option, the value and where it was written
     */
    V parse(String text);

    /** The text that parses back to {@code value}. */
    String format(V value);

    /** The value's name in help, {@code <port>}; for an on/off option {@code <on|off>}. */
    String paramLabel();

    default Arity arity() {
        return Arity.REQUIRED_VALUE;
    }

    /** An on/off option: given alone it means on ({@code --record}, or a bare {@code record} line). */
    default boolean flag() {
        return arity() == Arity.FLAG;
    }

    /**
     * The option's value after one more occurrence, written {@code text} at {@code source}: the
     * parsed value for a single-valued option, the list grown by one for a repeatable one.
     *
     * @throws IllegalArgumentException as {@link #parse}
     */
    default V apply(V current, String text, ConfigSource source) {
        return parse(text);
    }

    /** Repeated occurrences accumulate (and the command line replaces the file's). */
    default boolean repeatable() {
        return false;
    }

    /**
     * What a configuration file holds for {@code value}: one entry per line, {@code ""} for a bare
     * flag, none to leave the option out. Reading the lines back gives {@code value} again.
     */
    default List<String> lines(V value) {
        return List.of(format(value));
    }

    /** How {@code value} reads as a default in help and the README. */
    default String describe(V value) {
        List<String> lines = lines(value);
        return lines.isEmpty() ? "none" : String.join(", ", lines);
    }
}
