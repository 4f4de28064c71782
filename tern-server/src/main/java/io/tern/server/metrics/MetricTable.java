package io.tern.server.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.LongSupplier;

/**
 * A server's Prometheus collectors written as a table, one row per metric: its kind, name, help,
 * label names and where its values come from, all read when Prometheus scrapes. Each {@code
 * *Metrics.register} is such a table, so a metric is added, renamed or explained in one line of
 * it instead of a builder block.
 */
final class MetricTable {
    /** Where a labelled metric's samples come from: one {@link Sink#sample} per label value set. */
    @FunctionalInterface
    interface Reader {
        void read(Sink sink);
    }

    /** Takes one sample of a metric: its value and one value for each of its label names. */
    @FunctionalInterface
    interface Sink {
        void sample(double value, String... labelValues);
    }

    /** A fixed label value and the counter it reads. */
    record Sample(String labelValue, LongSupplier value) {}

    private final PrometheusRegistry registry;

    MetricTable(PrometheusRegistry registry) {
        this.registry = registry;
    }

    /** A sample for {@link #counter(String, String, String, Sample...)} and its gauge twin. */
    static Sample sample(String labelValue, LongSupplier value) {
        return new Sample(labelValue, value);
    }

    /** A counter without labels. */
    MetricTable counter(String name, String help, LongSupplier value) {
        CounterWithCallback.builder()
                .name(name)
                .help(help)
                .callback(cb -> cb.call(value.getAsLong()))
                .register(registry);
        return this;
    }

    /** A counter with one label, whose values are fixed. */
    MetricTable counter(String name, String help, String labelName, Sample... samples) {
        return counter(name, help, new String[] {labelName}, sink -> {
            for (Sample sample : samples) {
                sink.sample(sample.value().getAsLong(), sample.labelValue());
            }
        });
    }

    /** A counter whose samples {@code reader} reports, one per set of label values. */
    MetricTable counter(String name, String help, String[] labelNames, Reader reader) {
        CounterWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames(labelNames)
                .callback(cb -> reader.read(cb::call))
                .register(registry);
        return this;
    }

    /** A gauge without labels. */
    MetricTable gauge(String name, String help, LongSupplier value) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .callback(cb -> cb.call(value.getAsLong()))
                .register(registry);
        return this;
    }

    /** A gauge whose samples {@code reader} reports, one per set of label values. */
    MetricTable gauge(String name, String help, String[] labelNames, Reader reader) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames(labelNames)
                .callback(cb -> reader.read(cb::call))
                .register(registry);
        return this;
    }

    /** Label names, for a row that has some. */
    static String[] labels(String... names) {
        return names;
    }
}
