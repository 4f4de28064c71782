package io.tern.server.option;

import java.util.Objects;

/**
 * One option, one row: its name (the same on the command line, {@code --name}, and in the file,
 * {@code name = value}), its value type, its default, where it may be set and what it does. The
 * command line ({@code io.tern.server.cli.ConfigCommand}), the file reader, {@code --help},
 * {@code --print-config} ({@link #printed}) and the README's tables are all made from the rows. The default comes from the engine's configuration record where the
 * engine has one ({@code PackagerConfig.DEFAULT_PART_TARGET_MS}), so it is written once.
 *
 * @param name         the option's name, without dashes
 * @param type         parser, validation and printed form
 * @param defaultValue the value when it is not given; null for "none"
 * @param defaultText  how help states the default
 * @param scope        whether a {@code [stream NAME]} section may set it too
 * @param secret       never printed by {@code --print-config}
 * @param help         what it does, without the default
 * @param <V>          the value the option holds
 */
public record Option<V>(
        String name, OptionType<V> type, V defaultValue, String defaultText, Scope scope, boolean secret, String help) {

    /** Where an option may be set. */
    public enum Scope {
        /** On the command line and at the top of the file. */
        SERVER,
        /** Also in a {@code [stream NAME]} section, where it overrides the server-wide value for that stream. */
        STREAM
    }

    public Option {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type of " + name);
        Objects.requireNonNull(scope, "scope of " + name);
        Objects.requireNonNull(help, "help of " + name);
        if (defaultText == null) {
            defaultText = defaultValue == null ? "none" : type.describe(defaultValue);
        }
    }

    /** A server-wide option. */
    public static <V> Option<V> of(String name, OptionType<V> type, V defaultValue, String defaultText, String help) {
        return new Option<>(name, type, defaultValue, defaultText, Scope.SERVER, false, help);
    }

    /** The value's name in help: {@code <on|off>} for a flag. */
    public String paramLabel() {
        return type.flag() ? "<on|off>" : type.paramLabel();
    }

    /** What it does and where it may be set, without the default: the README's "Meaning". */
    public String meaning() {
        return help + (scope == Scope.STREAM ? " Also per stream." : "");
    }

    /** The help text as {@code --help} shows it: what it does, where it may be set, then its default. */
    public String helpWithDefault() {
        return meaning() + " Default: " + defaultText + ".";
    }

    /**
     * The value of one occurrence of this option.
     *
     * @throws ConfigException naming the option, the value and where it was written
     */
    public V parse(Occurrence occurrence) {
        try {
            return type.apply(null, occurrence.value(), occurrence.source());
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalidValue(name, occurrence.value(), e.getMessage(), occurrence.source());
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
}
