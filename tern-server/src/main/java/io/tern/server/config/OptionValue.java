package io.tern.server.config;

import io.tern.server.option.ConfigSource;
import java.util.Objects;

/**
 * One occurrence of an option, before interpretation: {@code user=alice:secret} on line 12.
 *
 * @param option the option's row (known to {@link CoturnOptions})
 * @param value  the raw value; empty for a bare flag such as {@code fingerprint}
 * @param source where it was written
 * @param name   the name it was written with: the row's name or one of its aliases
 */
public record OptionValue(OptionDef<?> option, String value, ConfigSource source, String name) {
    public OptionValue {
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(name, "name");
    }

    /** An occurrence written with the option's own name. */
    public OptionValue(final OptionDef<?> option, final String value, final ConfigSource source) {
        this(option, value, source, option.name());
    }
}
