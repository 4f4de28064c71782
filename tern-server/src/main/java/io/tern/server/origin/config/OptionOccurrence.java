package io.tern.server.origin.config;

import io.tern.server.config.ConfigSource;
import java.util.Objects;

/**
 * One occurrence of an origin option before it is parsed: {@code part-target-ms = 300} on line 12,
 * in the section of stream {@code cam1}.
 *
 * @param option the row
 * @param value  the raw text; empty for a bare flag
 * @param source where it was written
 * @param stream the {@code [stream NAME]} section it is in, or null at the top level and on the command line
 */
public record OptionOccurrence(OriginOption<?> option, String value, ConfigSource source, String stream) {
    public OptionOccurrence {
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
    }
}
