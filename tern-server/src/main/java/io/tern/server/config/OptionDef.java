package io.tern.server.config;

import io.tern.server.option.Arity;
import io.tern.server.option.ConfigException;
import io.tern.server.option.OptionType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One row of the option table ({@link CoturnOptions}): everything Tern knows about one option.
 * The command line, the {@code turnserver.conf} reader, {@code --help}, {@code --print-config},
 * the README's table and the warnings about unsupported options are all made from the rows.
 *
 * <p>A supported row's value lives in {@link OptionValues} under the row itself: the row is the
 * field it sets, and {@link TurnServerConfig}'s accessors read it from there.
 *
 * @param <V> the value the option holds
 */
public final class OptionDef<V> {
    /** What Tern does when it sees the option. */
    public enum Status {
        /** Tern implements it. */
        SUPPORTED,
        /** Tern always behaves the way the option asks; accepted silently. */
        ALWAYS_TRUE,
        /** Known coturn option Tern does not implement: warned about once and ignored. */
        UNSUPPORTED
    }

    /** What {@code --print-config} writes for a row, given the effective configuration. */
    @FunctionalInterface
    public interface Printer {
        /** Lines without their newline; {@code showSecrets} only for the one start-up print. */
        List<String> lines(TurnServerConfig config, boolean showSecrets);
    }

    /** Another row this one also sets, and to what, after each occurrence. */
    record Implication<V, W>(OptionDef<W> target, Function<V, W> value) {}

    private final String name;
    private final List<String> aliases;
    private final String shortFlag;
    private final Status status;
    private final boolean ternExtension;
    private final OptionType<V> type;
    private final V defaultValue;
    private final String defaultText;
    private final String paramLabel;
    private final String help;
    private final List<Implication<V, ?>> implications;
    private final boolean keepsOwnValue;
    private final Function<TurnServerConfig, String> note;
    private final Printer printer;
    private final Predicate<TurnServerConfig> printedIf;

    private OptionDef(final Builder<V> b) {
        this.name = Objects.requireNonNull(b.name, "name");
        this.aliases = List.copyOf(b.aliases);
        this.shortFlag = b.shortFlag;
        this.status = b.status;
        this.ternExtension = b.ternExtension;
        this.type = Objects.requireNonNull(b.type, "type of " + b.name);
        this.defaultValue = b.defaultValue;
        this.defaultText = b.defaultText != null ? b.defaultText : b.type.describe(b.defaultValue);
        this.paramLabel = b.paramLabel != null ? b.paramLabel : b.type.paramLabel();
        this.help = Objects.requireNonNull(b.help, "help of " + b.name);
        this.implications = List.copyOf(b.implications);
        this.keepsOwnValue = b.keepsOwnValue;
        this.note = b.note;
        this.printer = b.printer;
        this.printedIf = b.printedIf;
        if (status == Status.SUPPORTED && defaultValue == null) {
            throw new IllegalStateException("supported option without a default: " + name);
        }
    }

    /** A row for an option Tern implements; finish it with {@link Builder#type}, {@link Builder#help}, .... */
    static Builder<Void> supported(final String name) {
        return new Builder<>(name, Status.SUPPORTED);
    }

    /** A coturn option Tern always behaves as asked by: accepted and ignored silently. */
    static OptionDef<Void> alwaysTrue(final String name, final String help) {
        return new Builder<Void>(name, Status.ALWAYS_TRUE)
                .type(CoturnTypes.ignored(Arity.FLAG))
                .help(help)
                .build();
    }

    /** A known coturn option Tern does not implement: warned about once and ignored. */
    static OptionDef<Void> unsupported(final String name, final Arity arity, final String... aliasesAndShortFlag) {
        final Builder<Void> b = new Builder<Void>(name, Status.UNSUPPORTED)
                .type(CoturnTypes.ignored(arity))
                .help("coturn option not supported by Tern; ignored with a warning.");
        for (final String other : aliasesAndShortFlag) {
            if (other.startsWith("-")) {
                b.shortFlag(other);
            } else {
                b.alias(other);
            }
        }
        return b.build();
    }

    /** coturn's long name, without dashes ({@code listening-port}). */
    public String name() {
        return name;
    }

    /** Other long names coturn accepts for the same option ({@code db} for {@code userdb}). */
    public List<String> aliases() {
        return aliases;
    }

    /** coturn's one-letter form ({@code -p}), or {@code null}. */
    public String shortFlag() {
        return shortFlag;
    }

    public Status status() {
        return status;
    }

    /** Tern's own option, not coturn's. */
    public boolean ternExtension() {
        return ternExtension;
    }

    public Arity arity() {
        return type.arity();
    }

    public boolean repeatable() {
        return type.repeatable();
    }

    /** The value without any occurrence; {@code null} for options Tern ignores. */
    public V defaultValue() {
        return defaultValue;
    }

    /** The default as help and the README state it. */
    public String defaultText() {
        return defaultText;
    }

    /** The value's name in help, {@code <port>}; empty for flags. */
    public String paramLabel() {
        return paramLabel;
    }

    /** What the option does, without its default. */
    public String help() {
        return help;
    }

    /** What the option does, marked when it is Tern's own. */
    public String description() {
        return ternExtension ? "Tern extension: " + lowerFirstWord(help) : help;
    }

    /** The help text as {@code --help} shows it: what it does, then its default. */
    public String helpWithDefault() {
        return status == Status.SUPPORTED ? description() + " Default: " + defaultText + "." : help;
    }

    /** "A TCP connection" becomes "a TCP connection"; "TCP and TLS" and "ChannelBind" stay. */
    private static String lowerFirstWord(final String text) {
        final int end = text.indexOf(' ') < 0 ? text.length() : text.indexOf(' ');
        final String word = text.substring(0, end);
        return word.substring(1).chars().anyMatch(Character::isUpperCase)
                ? text
                : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }

    /** Applies one occurrence to {@code values}: this row's value, then the rows it implies. */
    void apply(final OptionValues.Builder values, final OptionValue occurrence) {
        final V value = valueAfter(values.get(this), occurrence);
        if (keepsOwnValue) {
            values.put(this, value);
        }
        for (final Implication<V, ?> implication : implications) {
            implied(values, implication, value);
        }
    }

    /** The value after {@code occurrence}; a bare name of an {@link Arity#OPTIONAL_VALUE} row means the default. */
    private V valueAfter(final V current, final OptionValue occurrence) {
        if (occurrence.value().isEmpty() && type.arity() == Arity.OPTIONAL_VALUE) {
            return defaultValue;
        }
        try {
            return type.apply(current, occurrence.value(), occurrence.source());
        } catch (final IllegalArgumentException refused) {
            throw ConfigException.invalidValue(
                    occurrence.name(), occurrence.value(), refused.getMessage(), occurrence.source());
        }
    }

    private static <V, W> void implied(
            final OptionValues.Builder values, final Implication<V, W> implication, final V value) {
        values.put(implication.target(), implication.value().apply(value));
    }

    /** The {@code --print-config} lines for this row: an explanatory comment, then its value. */
    List<String> print(final TurnServerConfig config, final boolean showSecrets) {
        final List<String> lines = new ArrayList<>();
        final String comment = note == null ? null : note.apply(config);
        if (comment != null) {
            lines.add("# " + comment);
        }
        if (printer != null) {
            lines.addAll(printer.lines(config, showSecrets));
            return lines;
        }
        if (!keepsOwnValue || !printedIf.test(config)) {
            return lines;
        }
        final V value = config.options().get(this);
        if (type.arity() == Arity.FLAG && value.equals(defaultValue)) {
            return lines;
        }
        for (final String text : type.lines(value)) {
            lines.add(text.isEmpty() ? name : name + "=" + text);
        }
        return lines;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Builds one row; the row's type fixes {@code V}. */
    static final class Builder<V> {
        private final String name;
        private final Status status;
        private final List<String> aliases = new ArrayList<>();
        private String shortFlag;
        private boolean ternExtension;
        private OptionType<V> type;
        private V defaultValue;
        private String defaultText;
        private String paramLabel;
        private String help;
        private final List<Implication<V, ?>> implications = new ArrayList<>();
        private boolean keepsOwnValue = true;
        private Function<TurnServerConfig, String> note;
        private Printer printer;
        private Predicate<TurnServerConfig> printedIf = config -> true;

        private Builder(final String name, final Status status) {
            this.name = name;
            this.status = status;
        }

        Builder<V> shortFlag(final String flag) {
            this.shortFlag = flag;
            return this;
        }

        Builder<V> alias(final String alias) {
            aliases.add(alias);
            return this;
        }

        /** Tern's own option; help says so. */
        Builder<V> ternExtension() {
            this.ternExtension = true;
            return this;
        }

        /** Fixes the value type; every later call is typed by it. */
        @SuppressWarnings("unchecked")
        <W> Builder<W> type(final OptionType<W> valueType) {
            final Builder<W> typed = (Builder<W>) this;
            typed.type = valueType;
            return typed;
        }

        /** A value type and the value without any occurrence. */
        <W> Builder<W> type(final OptionType<W> valueType, final W value) {
            final Builder<W> typed = type(valueType);
            typed.defaultValue = value;
            return typed;
        }

        /** How help states the default, when the value alone does not say it well. */
        Builder<V> defaultText(final String text) {
            this.defaultText = text;
            return this;
        }

        Builder<V> paramLabel(final String label) {
            this.paramLabel = label;
            return this;
        }

        Builder<V> help(final String text) {
            this.help = text;
            return this;
        }

        /** After each occurrence, {@code target} is set too ({@code static-auth-secret} turns on {@code use-auth-secret}). */
        <W> Builder<V> alsoSets(final OptionDef<W> target, final Function<V, W> value) {
            implications.add(new Implication<>(target, value));
            return this;
        }

        /**
         * The row's value goes to {@code target} only, which prints it: {@code no-software-attribute}
         * is {@code software-attribute} negated, and the last of the two wins.
         */
        <W> Builder<V> setsInstead(final OptionDef<W> target, final Function<V, W> value) {
            keepsOwnValue = false;
            return alsoSets(target, value);
        }

        /** A comment {@code --print-config} writes before the row's value; null for none. */
        Builder<V> note(final Function<TurnServerConfig, String> comment) {
            this.note = comment;
            return this;
        }

        /** What {@code --print-config} writes instead of the value: for secrets and for rows that only feed others. */
        Builder<V> printer(final Printer lines) {
            this.printer = lines;
            return this;
        }

        /** Leaves the value out of {@code --print-config} unless {@code condition} holds, when reading it back would fail. */
        Builder<V> printedIf(final Predicate<TurnServerConfig> condition) {
            this.printedIf = condition;
            return this;
        }

        OptionDef<V> build() {
            return new OptionDef<>(this);
        }
    }
}
