package io.tern.server.config;

import io.tern.server.option.Arity;
import io.tern.server.option.Option;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What {@code --print-config} writes for one row of {@link CoturnOptions} beyond {@code name=value}:
 * a comment that depends on the whole configuration, other lines instead of the value (secrets,
 * rows that only feed others), or nothing when reading the value back would fail. It is kept beside
 * the row, not in it, because it reads {@link TurnServerConfig}, which the option kit knows nothing of.
 *
 * @param note      the comment before the value; null, or a function giving null, for none
 * @param printer   the lines instead of the value, or null to print the value
 * @param printedIf the value is left out unless this holds
 */
record CoturnPrinting(Function<TurnServerConfig, String> note, Printer printer, Predicate<TurnServerConfig> printedIf) {
    /** The value alone. */
    static final CoturnPrinting VALUE = new CoturnPrinting(null, null, config -> true);

    /** The lines written instead of a row's value. */
    @FunctionalInterface
    interface Printer {
        /** Lines without their newline; {@code showSecrets} only for the one start-up print. */
        List<String> lines(TurnServerConfig config, boolean showSecrets);
    }

    /** A comment {@code --print-config} writes before the row's value; the function may give null for none. */
    static CoturnPrinting note(final Function<TurnServerConfig, String> comment) {
        return new CoturnPrinting(comment, null, VALUE.printedIf);
    }

    /** What {@code --print-config} writes instead of the value. */
    static CoturnPrinting printer(final Printer lines) {
        return new CoturnPrinting(null, lines, VALUE.printedIf);
    }

    /** Leaves the value out unless {@code condition} holds, when reading it back would fail. */
    CoturnPrinting printedIf(final Predicate<TurnServerConfig> condition) {
        return new CoturnPrinting(note, printer, condition);
    }

    /** The {@code --print-config} lines for {@code row}: an explanatory comment, then its value. */
    <V> List<String> lines(final Option<V> row, final TurnServerConfig config, final boolean showSecrets) {
        final List<String> lines = new ArrayList<>();
        final String comment = note == null ? null : note.apply(config);
        if (comment != null) {
            lines.add("# " + comment);
        }
        if (printer != null) {
            lines.addAll(printer.lines(config, showSecrets));
            return lines;
        }
        if (!row.keepsOwnValue() || !printedIf.test(config)) {
            return lines;
        }
        final V value = config.options().get(row);
        if (row.arity() == Arity.FLAG && value.equals(row.defaultValue())) {
            return lines;
        }
        for (final String text : row.type().lines(value)) {
            lines.add(text.isEmpty() ? row.name() : row.name() + "=" + text);
        }
        return lines;
    }
}
