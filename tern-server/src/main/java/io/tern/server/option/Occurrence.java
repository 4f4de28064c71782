package io.tern.server.option;

import java.util.Objects;

/**
 * One occurrence of an option before it is parsed: {@code part-target-ms = 300} on line 12, in the
 * section of stream {@code cam1}.
 *
 * @param option  the row
 * @param name    the name it was written with: the row's name or one of its aliases
 * @param value   the raw text; empty for a bare flag
 * @param source  where it was written
 * @param section the {@code [stream NAME]} section it is in, or null at the top level and on the command line
 */
public record Occurrence(Option<?> option, String name, String value, ConfigSource source, String section) {
    public Occurrence {
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
    }

    /** An occurrence written with the row's own name. */
    public Occurrence(Option<?> option, String value, ConfigSource source, String section) {
        this(option, option.name(), value, source, section);
    }

    /** An occurrence written with the row's own name, outside any section. */
    public Occurrence(Option<?> option, String value, ConfigSource source) {
        this(option, value, source, null);
    }
}
