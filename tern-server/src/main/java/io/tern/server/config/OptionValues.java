package io.tern.server.config;

import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.option.Option.Implication;
import io.tern.server.option.Option.Status;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** The value of every supported option, keyed by its row; immutable. */
public final class OptionValues {
    private final Map<Option<?>, Object> values;

    private OptionValues(final Map<Option<?>, Object> values) {
        this.values = Map.copyOf(values);
    }

    static Builder builder() {
        return new Builder();
    }

    /** The option's value; its default unless it was given. */
    @SuppressWarnings("unchecked")
    public <V> V get(final Option<V> option) {
        final Object value = values.get(option);
        if (value == null) {
            throw new IllegalArgumentException("not a supported option: " + option.name());
        }
        return (V) value;
    }

    /** A copy with {@code option} back at its default. */
    <V> OptionValues withDefault(final Option<V> option) {
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
        private final Map<Option<?>, Object> values = new LinkedHashMap<>();

        private Builder() {
            for (final Option<?> option : CoturnOptions.withStatus(Status.SUPPORTED)) {
                values.put(option, option.defaultValue());
            }
        }

        private Builder(final Map<Option<?>, Object> from) {
            values.putAll(from);
        }

        @SuppressWarnings("unchecked")
        <V> V get(final Option<V> option) {
            return (V) values.get(option);
        }

        <V> void put(final Option<V> option, final V value) {
            values.put(option, Objects.requireNonNull(value, option.name()));
        }

        /** Applies one occurrence of a supported row: the row's value, then the rows it implies. */
        void apply(final Occurrence occurrence) {
            apply(occurrence.option(), occurrence);
        }

        private <V> void apply(final Option<V> option, final Occurrence occurrence) {
            final V value = option.valueAfter(get(option), occurrence);
            if (option.keepsOwnValue()) {
                put(option, value);
            }
            for (final Implication<V, ?> implication : option.implications()) {
                implied(implication, value);
            }
        }

        private <V, W> void implied(final Implication<V, W> implication, final V value) {
            put(implication.target(), implication.value().apply(value));
        }

        OptionValues build() {
            return new OptionValues(values);
        }
    }
}
