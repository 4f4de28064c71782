package io.tern.server.option;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One option, one row: its name (the same on the command line, {@code --name}, and in the file,
 * {@code name = value}), its value type, its default, where it may be set and what it does. The
 * command line ({@code io.tern.server.cli.ConfigCommand}), the file reader, {@code --help},
 * {@code --print-config} ({@link #printed}) and the README's tables are all made from the rows. The
 * default comes from the engine's configuration record where the engine has one
 * ({@code PackagerConfig.DEFAULT_PART_TARGET_MS}), so it is written once.
 *
 * <p>coturn's table ({@code io.tern.server.config.CoturnOptions}) uses more of a row: other names
 * (aliases and a one-letter flag), options Tern accepts without implementing them ({@link Status}),
 * Tern's own options among coturn's, and rows that set other rows ({@link Builder#alsoSets}).
 *
 * @param <V> the value the option holds
 */
public final class Option<V> {
    /** Where an option may be set. */
    public enum Scope {
        /** On the command line and at the top of the file. */
        SERVER,
        /** Also in a {@code [stream NAME]} section, where it overrides the server-wide value for that stream. */
        STREAM
    }

    /** What Tern does when it sees the option. */
    public enum Status {
        /** Tern implements it. */
        SUPPORTED,
        /** Tern always behaves the way the option asks; accepted silently. */
        ALWAYS_TRUE,
        /** Known coturn option Tern does not implement: warned about once and ignored. */
        UNSUPPORTED
    }

    /**
     * Another row this one also sets after each occurrence, and to what.
     *
     * @param target the row set too
     * @param value  its value, from this row's
     */
    public record Implication<V, W>(Option<W> target, Function<V, W> value) {}

    private final String name;
    private final List<String> aliases;
    private final String shortFlag;
    private final Status status;
    private final boolean ternExtension;
    private final OptionType<V> type;
    private final V defaultValue;
    private final String defaultText;
    private final String paramLabel;
    private final Scope scope;
    private final boolean secret;
    private final String help;
    private final List<Implication<V, ?>> implications;
    private final boolean keepsOwnValue;

    /**
     * A supported row with one name.
     *
     * @param name         the option's name, without dashes
     * @param type         parser, validation and printed form
     * @param defaultValue the value when it is not given; null for "none"
     * @param defaultText  how help states the default; null to have the type state it
     * @param scope        whether a {@code [stream NAME]} section may set it too
     * @param secret       never printed by {@code --print-config}
     * @param help         what it does, without the default
     */
    public Option(
            String name,
            OptionType<V> type,
            V defaultValue,
            String defaultText,
            Scope scope,
            boolean secret,
            String help) {
        this(new Builder<Void>(name, Status.SUPPORTED)
                .type(type, defaultValue)
                .defaultText(defaultText)
                .scope(scope)
                .secret(secret)
                .help(help));
    }

    private Option(Builder<V> b) {
        this.name = Objects.requireNonNull(b.name, "name");
        this.aliases = List.copyOf(b.aliases);
        this.shortFlag = b.shortFlag;
        this.status = Objects.requireNonNull(b.status, "status of " + b.name);
        this.ternExtension = b.ternExtension;
        this.type = Objects.requireNonNull(b.type, "type of " + b.name);
        this.defaultValue = b.defaultValue;
        this.defaultText = b.defaultText != null
                ? b.defaultText
                : b.defaultValue == null ? "none" : b.type.describe(b.defaultValue);
        this.paramLabel = b.paramLabel;
        this.scope = Objects.requireNonNull(b.scope, "scope of " + b.name);
        this.secret = b.secret;
        this.help = Objects.requireNonNull(b.help, "help of " + b.name);
        this.implications = List.copyOf(b.implications);
        this.keepsOwnValue = b.keepsOwnValue;
    }

    /** A server-wide option. */
    public static <V> Option<V> of(String name, OptionType<V> type, V defaultValue, String defaultText, String help) {
        return new Option<>(name, type, defaultValue, defaultText, Scope.SERVER, false, help);
    }

    /** A row with more than {@link #of} says; finish it with {@link Builder#type}, {@link Builder#help}, .... */
    public static Builder<Void> builder(String name, Status status) {
        return new Builder<>(name, status);
    }

    /** The option's name, without dashes ({@code listening-port}). */
    public String name() {
        return name;
    }

    /** Other long names accepted for the same option ({@code db} for {@code userdb}). */
    public List<String> aliases() {
        return aliases;
    }

    /** The one-letter form ({@code -p}), or {@code null}. */
    public String shortFlag() {
        return shortFlag;
    }

    public Status status() {
        return status;
    }

    /** Tern's own option in a table of coturn's. */
    public boolean ternExtension() {
        return ternExtension;
    }

    public OptionType<V> type() {
        return type;
    }

    public Arity arity() {
        return type.arity();
    }

    public boolean repeatable() {
        return type.repeatable();
    }

    /** The value when it is not given; null for "none" and for options Tern ignores. */
    public V defaultValue() {
        return defaultValue;
    }

    /** The default as help and the README state it. */
    public String defaultText() {
        return defaultText;
    }

    public Scope scope() {
        return scope;
    }

    /** Never printed by {@code --print-config}. */
    public boolean secret() {
        return secret;
    }

    /** What it does, without the default. */
    public String help() {
        return help;
    }

    /** The rows this one also sets after each occurrence. */
    public List<Implication<V, ?>> implications() {
        return implications;
    }

    /** False for a row whose value only goes to the rows it implies ({@link Builder#setsInstead}). */
    public boolean keepsOwnValue() {
        return keepsOwnValue;
    }

    /** The value's name in help: {@code <on|off>} for a flag. */
    public String paramLabel() {
        if (paramLabel != null) {
            return paramLabel;
        }
        return type.flag() ? "<on|off>" : type.paramLabel();
    }

    /** What it does and where it may be set, without the default: the README's "Meaning". */
    public String meaning() {
        return (ternExtension ? "Tern extension: " + lowerFirstWord(help) : help)
                + (scope == Scope.STREAM ? " Also per stream." : "");
    }

    /** The help text as {@code --help} shows it: what it does, where it may be set, then its default. */
    public String helpWithDefault() {
        return status == Status.SUPPORTED ? meaning() + " Default: " + defaultText + "." : help;
    }

    /** "A TCP connection" becomes "a TCP connection"; "TCP and TLS" and "ChannelBind" stay. */
    private static String lowerFirstWord(String text) {
        int end = text.indexOf(' ') < 0 ? text.length() : text.indexOf(' ');
        String word = text.substring(0, end);
        return word.substring(1).chars().anyMatch(Character::isUpperCase)
                ? text
                : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }

    /**
     * The value of one occurrence of this option.
     *
     * @throws ConfigException naming the option, the value and where it was written
     */
    public V parse(Occurrence occurrence) {
        return valueAfter(null, occurrence);
    }

    /**
     * The value after one more occurrence: the list grown by one for a repeatable row; a bare name
     * of an {@link Arity#OPTIONAL_VALUE} row means the default.
     *
     * @throws ConfigException naming the option as written, the value and where it was written
     */
    public V valueAfter(V current, Occurrence occurrence) {
        if (occurrence.value().isEmpty() && type.arity() == Arity.OPTIONAL_VALUE) {
            return defaultValue;
        }
        try {
            return type.apply(current, occurrence.value(), occurrence.source());
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalidValue(
                    occurrence.name(), occurrence.value(), e.getMessage(), occurrence.source());
        }
    }

    /** The text that parses back to {@code value}. */
    @SuppressWarnings("unchecked")
    public String format(Object value) {
        return type.format((V) value);
    }

    /**
     * This row's {@code --print-config} line, which reads back as {@code value}: {@code name = value},
     * or a comment for "none" and for a secret, which is never shown.
     */
    public String printed(Object value) {
        if (value == null) {
            return "# " + name + ": " + defaultText;
        }
        return secret ? "# " + name + " is set (not shown)" : name + " = " + format(value);
    }

    @Override
    public String toString() {
        return name;
    }

    /** Builds one row; the row's type fixes {@code V}. */
    public static final class Builder<V> {
        private final String name;
        private final Status status;
        private final List<String> aliases = new ArrayList<>();
        private String shortFlag;
        private boolean ternExtension;
        private OptionType<V> type;
        private V defaultValue;
        private String defaultText;
        private String paramLabel;
        private Scope scope = Scope.SERVER;
        private boolean secret;
        private String help;
        private final List<Implication<V, ?>> implications = new ArrayList<>();
        private boolean keepsOwnValue = true;

        private Builder(String name, Status status) {
            this.name = name;
            this.status = status;
        }

        public Builder<V> shortFlag(String flag) {
            this.shortFlag = flag;
            return this;
        }

        public Builder<V> alias(String alias) {
            aliases.add(alias);
            return this;
        }

        /** Tern's own option in a table of coturn's; help says so. */
        public Builder<V> ternExtension() {
            this.ternExtension = true;
            return this;
        }

        /** Fixes the value type; every later call is typed by it. */
        @SuppressWarnings("unchecked")
        public <W> Builder<W> type(OptionType<W> valueType) {
            Builder<W> typed = (Builder<W>) this;
            typed.type = valueType;
            return typed;
        }

        /** A value type and the value without any occurrence. */
        public <W> Builder<W> type(OptionType<W> valueType, W value) {
            Builder<W> typed = type(valueType);
            typed.defaultValue = value;
            return typed;
        }

        /** How help states the default, when the value alone does not say it well; null to have the type state it. */
        public Builder<V> defaultText(String text) {
            this.defaultText = text;
            return this;
        }

        /** The value's name in help, when the type's ({@code <n>}) says less than {@code <seconds>}. */
        public Builder<V> paramLabel(String label) {
            this.paramLabel = label;
            return this;
        }

        public Builder<V> scope(Scope where) {
            this.scope = where;
            return this;
        }

        public Builder<V> secret(boolean neverPrinted) {
            this.secret = neverPrinted;
            return this;
        }

        public Builder<V> help(String text) {
            this.help = text;
            return this;
        }

        /** After each occurrence, {@code target} is set too ({@code static-auth-secret} turns on {@code use-auth-secret}). */
        public <W> Builder<V> alsoSets(Option<W> target, Function<V, W> value) {
            implications.add(new Implication<>(target, value));
            return this;
        }

        /**
         * The row's value goes to {@code target} only, which prints it: {@code no-software-attribute}
         * is {@code software-attribute} negated, and the last of the two wins.
         */
        public <W> Builder<V> setsInstead(Option<W> target, Function<V, W> value) {
            keepsOwnValue = false;
            return alsoSets(target, value);
        }

        public Option<V> build() {
            return new Option<>(this);
        }
    }
}
