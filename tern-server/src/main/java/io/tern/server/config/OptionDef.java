package io.tern.server.config;

import java.util.Objects;

/**
 * One row of the coturn option table.
 *
 * @param name        long name as coturn spells it, without dashes ({@code listening-port})
 * @param shortName   coturn's one-letter alias ({@code -p}), or {@code null}
 * @param arity       whether a value is required, optional, or a boolean flag
 * @param repeatable  whether repeated occurrences accumulate ({@code user}, {@code listening-ip}, ...)
 * @param status      what Tern does with it
 * @param paramLabel  label for help output, e.g. {@code <port>}; empty for flags
 * @param description help text; for supported options it ends with the default
 */
public record OptionDef(
        String name,
        String shortName,
        Arity arity,
        boolean repeatable,
        Status status,
        String paramLabel,
        String description) {
    /** How coturn's getopt table declares the option. */
    public enum Arity {
        /** {@code name} alone means true; {@code name=off} etc. are accepted (coturn's get_bool_value). */
        FLAG,
        /** {@code name} alone means "the default", otherwise {@code name=value}. */
        OPTIONAL_VALUE,
        /** {@code name=value} only. */
        REQUIRED_VALUE
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

    public OptionDef {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arity, "arity");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(paramLabel, "paramLabel");
        Objects.requireNonNull(description, "description");
    }
}
