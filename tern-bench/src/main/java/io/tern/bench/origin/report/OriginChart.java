package io.tern.bench.origin.report;

import io.tern.bench.harness.report.BarChart;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/** The summary's chart: server CPU per request, peak RSS and generator CPU per request against viewers. */
final class OriginChart {
    private OriginChart() {}

    static void write(Map<String, CellMedians> cells, String title, Path png) throws IOException {
        TreeSet<Integer> viewers = new TreeSet<>();
        LinkedHashSet<String> series = new LinkedHashSet<>();
        for (CellMedians c : cells.values()) {
            viewers.add(c.viewers());
            series.add(c.series());
        }
        List<String> categories = new ArrayList<>();
        viewers.forEach(v -> categories.add(v + " viewers"));
        BarChart.write(
                title,
                categories,
                new ArrayList<>(series),
                List.of(
                        panel(cells, "server CPU µs per request (lower is better)", CellMedians::serverUsPerRequest),
                        panel(cells, "server peak RSS MiB (lower is better)", CellMedians::peakRssMiB),
                        panel(
                                cells,
                                "generator CPU µs per request (must stay below the server's)",
                                CellMedians::generatorUsPerRequest)),
                png);
    }

    private static BarChart.Panel panel(
            Map<String, CellMedians> cells, String caption, ToDoubleFunction<CellMedians> f) {
        Map<String, Map<String, Double>> values = new LinkedHashMap<>();
        for (CellMedians c : cells.values()) {
            values.computeIfAbsent(c.viewers() + " viewers", k -> new LinkedHashMap<>())
                    .put(c.series(), f.applyAsDouble(c));
        }
        return new BarChart.Panel(caption, values);
    }
}
