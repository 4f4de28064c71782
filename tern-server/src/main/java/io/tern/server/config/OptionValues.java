package io.tern.server.config;

import io.tern.server.config.OptionDef.Status;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** The value of every supported option, keyed by its row; immutable. */
public final class OptionValues {
    private final Map<OptionDef<?>, Object> values;

    private OptionValues(final Map<OptionDef<?>, Object> values) {
        this.values = Map.copyOf(values);
    }

    static Builder builder() {
        return new Builder();
    }

    /** The option's value; its default unless it was given. */
    @SuppressWarnings("unchecked")
    public <V> V get(final OptionDef<V> option) {
        final Object value = values.get(option);
        if (value == null) {
            throw new IllegalArgumentException("not a supported option: " + option.name());
        }
        return (V) value;
    }

    /** A copy with {@code option} back at its default. */
    <V> OptionValues withDefault(final OptionDef<V> option) {
        final Builder copy = new Builder(values);
        copy.put(option, option.defaultValue());
        return copy.build();
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof OptionValues that && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "OptionValues" + values.keySet();
    }

    /** Values while occurrences are applied in order. */
    static final class Builder {
        private final Map<OptionDef<?>, Object> values = new LinkedHashMap<>();

        private Builder() {
            for (final OptionDef<?> option : CoturnOptions.withStatus(Status.SUPPORTED)) {
                values.put(option, option.defaultValue());
            }
        }

        private Builder(final Map<OptionDef<?>, Object> from) {
            values.putAll(from);
        }

        @SuppressWarnings("unchecked")
        <V> V get(final OptionDef<V> option) {
            return (V) values.get(option);
        }

        <V> void put(final OptionDef<V> option, final V value) {
            values.put(option, Objects.requireNonNull(value, option.name()));
        }

        OptionValues build() {
            return new OptionValues(values);
        }
    }
}
