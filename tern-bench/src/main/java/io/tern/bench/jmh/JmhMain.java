package io.tern.bench.jmh;

import io.tern.bench.harness.sample.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs JMH with its usual command line, then writes a Markdown table (ns/op and B/op per
 * benchmark) next to the JSON. {@code --md FILE} is ours; everything else goes to JMH.
 */
public final class JmhMain {
    private JmhMain() {}

    public static void main(String[] args) throws RunnerException, CommandLineOptionException, IOException {
        Path md = null;
        String command = String.join(" ", args);
        List<String> jmhArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--md") && i + 1 < args.length) {
                md = Path.of(args[++i]);
            } else {
                jmhArgs.add(args[i]);
            }
        }
        String loadBefore = Host.loadavg();
        Options options = new OptionsBuilder()
                .parent(new CommandLineOptions(jmhArgs.toArray(String[]::new)))
                .build();
        Collection<RunResult> results = new Runner(options).run();
        String loadAfter = Host.loadavg();
        if (md != null) {
            List<String> preamble = List.of(
                    "- date: " + LocalDate.now() + ", host: " + Host.hostName(),
                    "- machine: " + Host.cpuModel() + ", "
                            + Runtime.getRuntime().availableProcessors() + " logical CPUs, JDK " + Runtime.version(),
                    "- load average before: " + loadBefore + "; after: " + loadAfter,
                    "- command: `bench/jmh` -> JMH " + command);
            Files.writeString(md, markdown(results, preamble));
            System.err.println("wrote " + md);
        }
    }

    static String markdown(Collection<RunResult> results, List<String> preamble) {
        StringBuilder sb = new StringBuilder("# Tern JMH microbenchmarks\n\n");
        preamble.forEach(l -> sb.append(l).append('\n'));
        sb.append("\nAverage time per operation (one fork; ± is JMH's 99.9% interval). On a shared, loaded ")
                .append("machine the mean absorbs every preemption, so `best` is the fastest measured iteration ")
                .append("(the least disturbed one): compare `best` between runs, and read a large ± as noise, not ")
                .append("as the code. B/op is `gc.alloc.rate.norm` from `-prof gc`: bytes allocated per operation ")
                .append("(values below 0.01 are JMH's own bookkeeping spread over the operations, i.e. 0).\n\n")
                .append("| benchmark | params | best ns/op | mean ns/op | ± | B/op | GCs |\n")
                .append("|---|---|---:|---:|---:|---:|---:|\n");
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            StringBuilder params = new StringBuilder();
            for (String k : r.getParams().getParamsKeys()) {
                params.append(params.isEmpty() ? "" : ", ")
                        .append(k)
                        .append('=')
                        .append(r.getParams().getParam(k));
            }
            Result<?> p = r.getPrimaryResult();
            Map<String, Result> secondary = r.getSecondaryResults();
            Result<?> alloc = secondary.get("gc.alloc.rate.norm");
            Result<?> gcs = secondary.get("gc.count");
            double best = r.getBenchmarkResults().stream()
                    .flatMap(b -> b.getIterationResults().stream())
                    .mapToDouble(i -> i.getPrimaryResult().getScore())
                    .min()
                    .orElse(Double.NaN);
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %.1f | %.1f | %.1f | %s | %s |%n",
                    name,
                    params,
                    best,
                    p.getScore(),
                    p.getScoreError(),
                    alloc == null ? "n/a" : String.format(Locale.ROOT, "%.3f", alloc.getScore()),
                    gcs == null ? "n/a" : String.format(Locale.ROOT, "%.0f", gcs.getScore())));
        }
        return sb.toString();
    }
}
