package io.tern.server.origin.config;

import java.util.Objects;

/**
 * One row of the origin's option table ({@link OriginOptions}): its name (the same on the command
 * line, {@code --name}, and in the file, {@code name = value}), its value type, its default, where
 * it may be set and what it does. The command line, the file reader, {@code --help},
 * {@code --print-config} and the README's table are all made from the rows.
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
public record OriginOption<V>(
        String name, ValueType<V> type, V defaultValue, String defaultText, Scope scope, boolean secret, String help) {

    /** Where an option may be set. */
    public enum Scope {
        /** On the command line and at the top of the file. */
        SERVER,
        /** Also in a {@code [stream NAME]} section, where it overrides the server-wide value for that stream. */
        STREAM
    }

    public OriginOption {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type of " + name);
        Objects.requireNonNull(scope, "scope of " + name);
        Objects.requireNonNull(help, "help of " + name);
        if (defaultText == null) {
            defaultText = defaultValue == null ? "none" : type.format(defaultValue);
        }
    }

    /** The help text as {@code --help} shows it: what it does, where it may be set, then its default. */
    public String helpWithDefault() {
        return help + (scope == Scope.STREAM ? " Also per stream." : "") + " Default: " + defaultText + ".";
    }

    @Override
    public String toString() {
        return name;
    }
}
