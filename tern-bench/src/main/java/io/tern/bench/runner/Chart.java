package io.tern.bench.runner;

import io.tern.bench.harness.report.BarChart;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/** The relay summary's chart: median packets/s and p99 per cell, one bar per server. */
final class Chart {
    private Chart() {}

    static void write(Map<String, Map<String, Summary.Medians>> cells, String title, Path png) throws IOException {
        List<String> servers = new ArrayList<>(new TreeSet<>(
                cells.values().stream().flatMap(m -> m.keySet().stream()).toList()));
        List<String> keys = new ArrayList<>(cells.keySet());
        BarChart.write(
                title,
                keys,
                servers,
                List.of(
                        panel(cells, "median packets/s (higher is better)", Summary.Medians::packetsPerSecond),
                        panel(cells, "median round-trip p99 µs (lower is better)", Summary.Medians::p99Us)),
                png);
    }

    private static BarChart.Panel panel(
            Map<String, Map<String, Summary.Medians>> cells, String caption, ToDoubleFunction<Summary.Medians> metric) {
        Map<String, Map<String, Double>> values = new LinkedHashMap<>();
        cells.forEach((key, byServer) -> {
            Map<String, Double> m = new LinkedHashMap<>();
            byServer.forEach((server, medians) -> m.put(server, metric.applyAsDouble(medians)));
            values.put(key, m);
        });
        return new BarChart.Panel(caption, values);
    }
}
