package io.tern.server.config;

import io.tern.server.config.OptionDef.Arity;
import java.util.List;

/**
 * How the text of an option becomes its value, and back: the parser (with its validation), how
 * repeated occurrences combine, and the {@code turnserver.conf} form {@code --print-config} writes.
 * The factories are in {@link OptionTypes}.
 *
 * @param <V> the value an option of this type holds
 */
public interface OptionType<V> {
    /** Whether the option takes a value: {@code -c}, {@code --help} and the reader follow it. */
    Arity arity();

    /** The value's name in help, {@code <port>}; empty for flags. */
    String paramLabel();

    /**
     * The option's value after one more occurrence: the parsed value for a single-valued option,
     * the list grown by one for a repeatable one.
     *
     * @throws ConfigException naming the option, the value and where it was written
     */
    V apply(V current, OptionValue occurrence);

    /**
     * What {@code --print-config} writes for {@code value}: one entry per line, {@code ""} for a
     * bare flag, none to leave the option out. Reading the lines back gives {@code value} again.
     */
    List<String> format(V value);

    /** Repeated occurrences accumulate (and the command line replaces the file's). */
    default boolean repeatable() {
        return false;
    }

    /** How {@code value} reads as a default in help and the README. */
    default String describe(final V value) {
        final List<String> lines = format(value);
        return lines.isEmpty() ? "none" : String.join(", ", lines);
    }
}
