package io.tern.bench.origin.runner;

import io.tern.bench.harness.matrix.JsonlLog;
import io.tern.bench.harness.matrix.QuietMachine;
import io.tern.bench.harness.report.Preamble;
import io.tern.bench.harness.report.PreviousReport;
import io.tern.bench.harness.sample.Host;
import io.tern.bench.harness.sample.ProcessTree;
import io.tern.bench.harness.server.FreePorts;
import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.harness.server.TernSnapshot;
import io.tern.bench.origin.load.GeneratorOptions;
import io.tern.bench.origin.load.OriginLoadConfig;
import io.tern.bench.origin.load.OriginLoadGenerator;
import io.tern.bench.origin.report.Fields;
import io.tern.bench.origin.report.OriginSummary;
import io.tern.bench.origin.report.RunRecord;
import io.tern.bench.origin.viewer.ViewerMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The origin comparison: the same ffmpeg stream into a fresh Tern or nginx-rtmp for every run,
 * viewers simulated by {@link OriginLoadGenerator} in this JVM, runs alternating between the
 * servers, each after a quiet-machine check and redone when other processes disturbed it;
 * results appended to a JSONL file, then a Markdown summary and a chart.
 */
@Command(
        name = "bench/origin/run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Tern vs nginx-rtmp origin benchmark over loopback (HLS viewers simulated on 127.0.0.1).")
public final class OriginRunnerMain implements Callable<Integer> {
    private static final int SEGMENTS_TO_JOIN = 3;

    @Option(
            names = "--quick",
            description = "one 750-viewer cell of each (Tern classic, nginx classic, Tern LL), one repeat")
    boolean quick;

    @Option(names = "--servers", split = ",", description = "tern and/or nginx, in run order (default: tern,nginx)")
    List<String> servers = List.of("tern", "nginx");

    @Option(
            names = "--modes",
            split = ",",
            description = "classic and/or ll (default: classic,ll; ll runs against Tern only)")
    List<String> modes = List.of("classic", "ll");

    @Option(names = "--viewers", split = ",", description = "viewer counts (default 50,250,750,2000,4000; quick 750)")
    List<Integer> viewers;

    @Option(names = "--repeats", description = "runs per server, mode and viewer count (default 3; quick 1)")
    Integer repeats;

    @Option(names = "--ramp-seconds", description = "viewers start evenly over this (default 10)")
    Double rampSeconds;

    @Option(names = "--settle-seconds", description = "after the ramp, before measuring (default 10; quick 5)")
    Double settleSeconds;

    @Option(names = "--measure-seconds", description = "measured window (default 60; quick 20)")
    Double measureSeconds;

    @Option(
            names = "--idle-seconds",
            description = "server CPU with the stream published and no viewers (default 5; quick 3)")
    Double idleSeconds;

    @Mixin
    GeneratorOptions generator = new GeneratorOptions();

    @Option(
            names = "--quiet-load",
            description = "wait until the 1-minute load average is at most this (default: 0.75 x CPUs)")
    Double quietLoad;

    @Option(
            names = "--quiet-cpu-percent",
            defaultValue = "25",
            description = "... and the CPUs at most this busy over 2 s")
    double quietCpuPercent;

    @Option(names = "--quiet-timeout-seconds", description = "then run anyway, and say so (default 600; quick 20)")
    Long quietTimeoutSeconds;

    @Option(
            names = "--disturbed-cpu-percent",
            defaultValue = "20",
            description = "a run during which other processes used more CPU than this (%% of one CPU) is redone")
    double disturbedCpuPercent;

    @Option(names = "--max-attempts", defaultValue = "3", description = "attempts per run when disturbed (default 3)")
    int maxAttempts;

    @Option(names = "--segment-target-ms", defaultValue = "1000", description = "Tern's segment target (default 1000)")
    int segmentTargetMs;

    @Option(names = "--part-target-ms", defaultValue = "200", description = "Tern's part target (default 200)")
    int partTargetMs;

    @Option(
            names = "--tern-command",
            defaultValue = "./tern origin",
            description = "launcher and subcommand; must exec the JVM")
    String ternCommand;

    @Option(names = "--tern-arg", description = "extra argument for Tern's origin (repeatable)")
    List<String> ternArgs = new ArrayList<>();

    @Option(
            names = "--tern-snapshot",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "run Tern from a frozen copy of its build (default: on)")
    boolean ternSnapshot;

    @Option(names = "--tern-build-timeout-ms", defaultValue = "900000")
    long ternBuildTimeoutMs;

    @Option(
            names = "--profile-tern",
            description =
                    "attach async-profiler to every Tern run: a CPU flame graph tern-cpu.html in each run directory")
    boolean profileTern;

    @Option(
            names = "--async-profiler",
            defaultValue = "bench/results/tmp/async-profiler-4.2/linux-x64/libasyncProfiler.so",
            description = "libasyncProfiler.so for --profile-tern (bench/origin/run fetches it from Maven Central)")
    Path asyncProfiler;

    @Option(names = "--nginx", defaultValue = "/usr/sbin/nginx")
    String nginx;

    @Option(
            names = "--nginx-workers",
            defaultValue = "auto",
            description = "worker_processes (default auto, as Debian ships it)")
    String nginxWorkers;

    @Option(
            names = "--playlist-seconds",
            defaultValue = "24",
            description = "nginx's hls_playlist_length (Tern's window: 24 s)")
    int playlistSeconds;

    @Option(names = "--hls-dir", defaultValue = "/dev/shm", description = "tmpfs directory for nginx's fragments")
    Path hlsDir;

    @Option(names = "--ffmpeg", defaultValue = "/usr/bin/ffmpeg")
    String ffmpeg;

    @Option(names = "--ready-timeout-ms", defaultValue = "60000")
    long readyTimeoutMs;

    @Option(names = "--stream-timeout-ms", defaultValue = "30000", description = "bound on the wait for 3 segments")
    long streamTimeoutMs;

    @Option(names = "--no-priming", description = "skip the unrecorded run that warms the generator's JIT")
    boolean noPriming;

    @Option(names = "--repo-root", defaultValue = ".")
    Path repoRoot;

    @Option(names = "--out", description = "results directory (default <repo>/bench/results/origin)")
    Path out;

    @Option(names = "--name", description = "file stem (default <date>-<host>, plus -quick)")
    String name;

    @Option(names = "--summarize", description = "only rebuild the .md and .png from this JSONL file")
    Path summarize;

    @Option(
            names = "--note",
            description = "a line for the summary's notes, e.g. why a run is provisional (repeatable)")
    List<String> extraNotes = new ArrayList<>();

    private final List<String> notes = new ArrayList<>();
    private List<String> commandLine = List.of();

    @Override
    public Integer call() throws Exception {
        repoRoot = repoRoot.toAbsolutePath().normalize();
        if (summarize != null) {
            String stem = summarize.getFileName().toString().replaceFirst("\\.jsonl$", "");
            Path md = summarize.resolveSibling(stem + ".md");
            List<String> preamble = new ArrayList<>(OriginSummary.preambleOf(md));
            preamble.add(PreviousReport.REBUILT_STAMP + "`" + summarize.getFileName() + "` on " + LocalDate.now());
            OriginSummary.write(summarize, md, summarize.resolveSibling(stem + ".png"), preamble, extraNotes);
            return 0;
        }
        applyDefaults();
        notes.addAll(extraNotes);
        List<ViewerMode> modeList = modes.stream().map(ViewerMode::parse).toList();
        List<String> serverList =
                servers.stream().map(s -> s.trim().toLowerCase(Locale.ROOT)).toList();
        Path dir = out != null ? out : repoRoot.resolve("bench/results/origin");
        String stem = name != null ? name : LocalDate.now() + "-" + Host.hostName() + (quick ? "-quick" : "");
        Path tmp = repoRoot.resolve("bench/results/tmp").resolve("origin-" + stem);
        Files.createDirectories(dir);
        Files.createDirectories(tmp);
        Map<String, Origin> origins = origins(serverList, tmp);
        if (origins == null) {
            return 2;
        }
        List<RunSpec> plan = Plan.runs(serverList, modeList, viewers, repeats);
        if (plan.isEmpty()) {
            System.err.println("bench/origin/run: nothing to run for servers " + serverList + " and modes " + modes);
            return 2;
        }
        long needed = OriginLoadConfig.filesNeeded(
                viewers.stream().mapToInt(Integer::intValue).max().orElse(0));
        long limit = ProcessTree.openFilesLimit();
        if (limit >= 0 && limit < needed) {
            System.err.println("bench/origin/run: open files limit " + limit + " is below the " + needed
                    + " the largest cell needs; raise ulimit -n (bench/origin/run raises it to the hard limit)");
            return 2;
        }
        Publisher publisher = new Publisher(ffmpeg);
        QuietMachine quiet = new QuietMachine(
                new QuietMachine.Thresholds(quietLoad, quietCpuPercent, quietTimeoutSeconds * 1000, 2000));
        Path jsonl = dir.resolve(stem + ".jsonl");
        String loadBefore = Host.loadavg();
        long startNs = System.nanoTime();
        if (!noPriming) {
            prime(origins, plan, publisher, tmp);
        }
        try (JsonlLog w = JsonlLog.create(jsonl)) {
            int index = 0;
            for (RunSpec spec : plan) {
                index++;
                for (int attempt = 1; attempt <= maxAttempts; attempt++) {
                    String prefix = String.format(
                            Locale.ROOT, "[%d/%d] %-28s attempt %d: ", index, plan.size(), spec.label(), attempt);
                    QuietMachine.Wait wait = quiet.await();
                    Path runDir = tmp.resolve(String.format(
                            Locale.ROOT,
                            "run-%03d-%s-%s-v%d-r%d-a%d",
                            index,
                            spec.server(),
                            spec.mode().label(),
                            spec.viewers(),
                            spec.repeat(),
                            attempt));
                    RunRecord r;
                    try {
                        r = runOne(origins.get(spec.server()), spec, publisher, runDir, measureSeconds);
                    } catch (Exception e) {
                        String msg = "failed: " + spec.label() + " attempt " + attempt + ": " + e;
                        notes.add(msg);
                        System.err.println(prefix + msg);
                        break;
                    }
                    boolean disturbed = r.number(Fields.OTHER_CPU_PERCENT) > disturbedCpuPercent;
                    r.put(Fields.ATTEMPT, attempt);
                    r.put(Fields.DISTURBED, disturbed);
                    r.put("quiet_check", wait.describe());
                    r.put("quiet_wait_seconds", wait.waitedMs() / 1000.0);
                    w.append(r.toJson());
                    System.err.println(prefix + OriginSummary.oneLine(r));
                    if (!disturbed) {
                        break;
                    }
                    if (attempt == maxAttempts) {
                        notes.add("still disturbed after " + maxAttempts + " attempts: " + spec.label()
                                + " (other processes " + r.number(Fields.OTHER_CPU_PERCENT) + "% of a CPU)");
                    }
                }
            }
        }
        double minutes = (System.nanoTime() - startNs) / 60e9;
        List<String> preamble = preamble(loadBefore, minutes, plan.size(), origins, publisher, jsonl);
        OriginSummary.write(jsonl, dir.resolve(stem + ".md"), dir.resolve(stem + ".png"), preamble, notes);
        System.err.printf(Locale.ROOT, "wrote %s, %s.md and %s.png in %.1f min%n", jsonl, stem, stem, minutes);
        return 0;
    }

    private void applyDefaults() {
        viewers = viewers != null && !viewers.isEmpty()
                ? viewers
                : quick ? List.of(750) : List.of(50, 250, 750, 2000, 4000);
        repeats = repeats != null ? repeats : quick ? 1 : 3;
        rampSeconds = rampSeconds != null ? rampSeconds : 10.0;
        settleSeconds = settleSeconds != null ? settleSeconds : quick ? 5.0 : 10.0;
        measureSeconds = measureSeconds != null ? measureSeconds : quick ? 20.0 : 60.0;
        idleSeconds = idleSeconds != null ? idleSeconds : quick ? 3.0 : 5.0;
        quietTimeoutSeconds = quietTimeoutSeconds != null ? quietTimeoutSeconds : quick ? 20L : 600L;
        quietLoad = quietLoad != null ? quietLoad : 0.75 * Runtime.getRuntime().availableProcessors();
    }

    private Map<String, Origin> origins(List<String> serverList, Path tmp) throws IOException, InterruptedException {
        Map<String, Origin> out = new LinkedHashMap<>();
        for (String s : serverList) {
            switch (s) {
                case "nginx" -> {
                    if (!Files.isExecutable(Path.of(nginx)) || !Files.isRegularFile(NginxRtmp.MODULE)) {
                        System.err.println("bench/origin/run: nginx requested but " + nginx + " or " + NginxRtmp.MODULE
                                + " is missing (apt: nginx libnginx-mod-rtmp)");
                        return null;
                    }
                    out.put(s, new NginxRtmp(nginx, nginxWorkers, hlsDir, playlistSeconds));
                }
                case "tern" -> {
                    List<String> launcher =
                            new ArrayList<>(Arrays.asList(ternCommand.trim().split("\\s+")));
                    Path exe = repoRoot.resolve(launcher.get(0));
                    if (!Files.isExecutable(exe)) {
                        System.err.println("bench/origin/run: Tern's launcher " + exe + " does not exist");
                        return null;
                    }
                    String build = "repository launcher (no snapshot)";
                    if (ternSnapshot) {
                        System.err.println(
                                "bench/origin/run: letting " + exe + " build if it needs to, then freezing a copy");
                        TernSnapshot snap = TernSnapshot.create(
                                repoRoot,
                                exe,
                                tmp.resolve("tern-snapshot"),
                                ternBuildTimeoutMs,
                                tmp.resolve("tern-build.log"));
                        launcher.set(0, snap.launcher().toString());
                        build = snap.description();
                    } else {
                        launcher.set(0, exe.toString());
                    }
                    List<String> dirty = TernSnapshot.uncommittedMainSources(
                            repoRoot, "tern-(media|rtmp|srt|hls|netty|server)/src/main/.*");
                    if (!dirty.isEmpty()) {
                        notes.add("warning: Tern was built from a working tree with uncommitted main sources: "
                                + String.join(", ", dirty));
                    }
                    Path profiler = null;
                    if (profileTern) {
                        profiler = repoRoot.resolve(asyncProfiler);
                        if (!Files.isRegularFile(profiler)) {
                            System.err.println("bench/origin/run: --profile-tern needs " + profiler);
                            return null;
                        }
                        notes.add(
                                "Tern ran with async-profiler attached (CPU sampling every 1 ms): its figures include "
                                        + "the profiler's cost; flame graphs are tern-cpu.html in the run directories");
                    }
                    out.put(
                            s,
                            new TernOrigin(
                                    launcher, repoRoot, build, segmentTargetMs, partTargetMs, ternArgs, profiler));
                }
                default -> {
                    System.err.println("bench/origin/run: unknown server '" + s + "' (tern or nginx)");
                    return null;
                }
            }
        }
        return out;
    }

    /** One short unrecorded run, so the first recorded one does not pay for the generator's JIT. */
    private void prime(Map<String, Origin> origins, List<RunSpec> plan, Publisher publisher, Path tmp) {
        RunSpec first = plan.stream()
                .filter(r -> r.server().equals("nginx"))
                .findFirst()
                .orElse(plan.get(0));
        RunSpec spec = new RunSpec(first.server(), first.mode(), Math.min(first.viewers(), 250), 0);
        try {
            runOne(origins.get(spec.server()), spec, publisher, tmp.resolve("priming"), 8.0);
            notes.add("one unrecorded priming run (" + spec.label()
                    + ", 8 s) warmed the generator before the first recorded run");
        } catch (Exception e) {
            notes.add("priming run failed (" + spec.label() + "): " + e);
        }
    }

    private RunRecord runOne(Origin origin, RunSpec spec, Publisher publisher, Path runDir, double measure)
            throws Exception {
        Files.createDirectories(runDir);
        Origin.Ports ports = new Origin.Ports(FreePorts.between(37000, 37999), FreePorts.between(38000, 38999), runDir);
        Files.writeString(runDir.resolve("command.txt"), String.join(" ", origin.command(ports)) + "\n");
        String loadBefore = Host.loadavg();
        long streamSeconds = (long) (idleSeconds + rampSeconds + settleSeconds + measure) + 90;
        RunRecord g;
        long streamWaitMs;
        double idleCpuPercent;
        long idleRss;
        boolean aliveAfter;
        try (ServerProcess server = origin.start(ports, readyTimeoutMs)) {
            try (ServerProcess pub = publisher.start(origin.publishUrl(ports), streamSeconds, runDir)) {
                StreamProbe.Found found = new StreamProbe()
                        .await(
                                ports.httpPort(),
                                origin.entryPath(),
                                SEGMENTS_TO_JOIN,
                                streamTimeoutMs,
                                () -> server.alive() && pub.alive());
                streamWaitMs = found.waitedMs();
                ProcessTree tree = new ProcessTree(server.pid());
                long t0 = tree.cpuTicks();
                long n0 = System.nanoTime();
                Thread.sleep((long) (idleSeconds * 1000));
                idleCpuPercent = (tree.cpuTicks() - t0)
                        * 100.0
                        / io.tern.bench.harness.sample.ProcStats.CLOCK_TICKS_PER_SECOND
                        / ((System.nanoTime() - n0) / 1e9);
                idleRss = tree.rssBytes();
                OriginLoadConfig c = generator.config(
                        ports.httpPort(),
                        origin.entryPath(),
                        spec.mode(),
                        spec.viewers(),
                        rampSeconds,
                        settleSeconds,
                        measure,
                        server.pid(),
                        pub.pid());
                g = new OriginLoadGenerator(c).run();
                aliveAfter = server.alive() && pub.alive();
            }
        } finally {
            origin.cleanUp(ports);
        }
        RunRecord r = new RunRecord()
                .put(Fields.SERVER, origin.name())
                .put(Fields.SERVER_VERSION, origin.version())
                .put(Fields.REPEAT, spec.repeat());
        g.fields().forEach(r::put);
        r.put(Fields.SERVER_IDLE_CPU_PERCENT, Math.round(idleCpuPercent * 10) / 10.0);
        r.put("server_idle_rss_bytes", idleRss);
        r.put("stream_wait_ms", streamWaitMs);
        r.put("server_and_publisher_alive_after", aliveAfter);
        r.put("publisher", publisher.version());
        r.put(Fields.LOAD_BEFORE, loadBefore);
        r.put("load_average_after", Host.loadavg());
        r.put("run_dir", repoRoot.relativize(runDir).toString());
        return r;
    }

    private List<String> preamble(
            String loadBefore, double minutes, int runs, Map<String, Origin> origins, Publisher publisher, Path jsonl)
            throws IOException {
        List<String> p = new ArrayList<>(
                Preamble.of(loadBefore, minutes, runs, "bench/origin/run " + String.join(" ", commandLine)));
        for (Origin o : origins.values()) {
            p.add("- " + o.name() + ": " + o.version());
        }
        p.add("- publisher: " + publisher.version() + ": testsrc2 1280x720 30 fps + sine 48 kHz, libx264 veryfast "
                + "zerolatency, GOP 30 (1 s), 2.5 Mbit/s, AAC 128 kbit/s, RTMP, -re");
        p.add(String.format(
                Locale.ROOT,
                "- method: fresh server and publisher per run; viewers (2 keep-alive HTTP/1.1 connections per rendition) start "
                        + "evenly over %.0f s, then %.0f s settle, then a %.0f s measured window (only it is counted); "
                        + "%d repeat(s); before each run a quiet check (load average <= %.2f, CPUs <= %.0f%% busy over 2 s, "
                        + "at most %d s of waiting); a run during which other processes used more than %.0f%% of a CPU is "
                        + "redone (up to %d attempts); renditions: %s; generator: %d event loop thread(s), epoll",
                rampSeconds,
                settleSeconds,
                measureSeconds,
                repeats,
                quietLoad,
                quietCpuPercent,
                quietTimeoutSeconds,
                disturbedCpuPercent,
                maxAttempts,
                generator.renditions(),
                generator.loopThreads()));
        p.add("- raw results: `" + jsonl.getFileName()
                + "`; per-run directories (commands, logs) in `bench/results/tmp/`");
        return p;
    }

    public static void main(String[] args) {
        OriginRunnerMain m = new OriginRunnerMain();
        // The script passes --repo-root itself; the summary shows what the user typed.
        List<String> shown = new ArrayList<>(List.of(args));
        int i = shown.indexOf("--repo-root");
        if (i >= 0 && i + 1 < shown.size()) {
            shown.subList(i, i + 2).clear();
        }
        m.commandLine = shown;
        System.exit(new CommandLine(m).execute(args));
    }
}
