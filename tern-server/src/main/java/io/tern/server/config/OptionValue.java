package io.tern.server.config;

import java.util.Objects;

/**
 * One occurrence of an option, before interpretation: {@code user=alice:secret} on line 12.
 *
 * @param option the option definition (known to {@link CoturnOptions})
 * @param value  the raw value; empty for a bare flag such as {@code fingerprint}
 * @param source where it was written
 */
public record OptionValue(OptionDef option, String value, ConfigSource source) {
    public OptionValue {
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
    }

    public String name() {
        return option.name();
    }
}
