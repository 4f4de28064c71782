package io.tern.bench.origin.load;

import io.tern.bench.origin.report.RunRecord;
import io.tern.bench.origin.viewer.ViewerMode;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The viewer load generator alone, against an origin you started: prints one JSON line. */
@Command(
        name = "origin-load",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Simulates HLS viewers of one live stream on 127.0.0.1 and prints the run's figures as JSON.")
public final class OriginLoadMain implements Callable<Integer> {
    @Option(names = "--port", required = true, description = "the origin's HTTP port on 127.0.0.1")
    int port;

    @Option(
            names = "--path",
            required = true,
            description = "playlist a viewer opens, e.g. /live/stream/index.m3u8 (Tern) or /hls/stream.m3u8 (nginx)")
    String path;

    @Option(names = "--mode", defaultValue = "classic", description = "classic or ll (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--viewers", defaultValue = "50")
    int viewers;

    @Option(names = "--ramp-seconds", defaultValue = "10")
    double rampSeconds;

    @Option(names = "--settle-seconds", defaultValue = "5")
    double settleSeconds;

    @Option(names = "--measure-seconds", defaultValue = "30")
    double measureSeconds;

    @Mixin
    GeneratorOptions generator = new GeneratorOptions();

    @Option(names = "--server-pid", defaultValue = "0", description = "root of the server's process tree, for /proc")
    long serverPid;

    @Option(names = "--publisher-pid", defaultValue = "0")
    long publisherPid;

    @Override
    public Integer call() throws Exception {
        OriginLoadConfig c = generator.config(
                port,
                path,
                ViewerMode.parse(mode),
                viewers,
                rampSeconds,
                settleSeconds,
                measureSeconds,
                serverPid,
                publisherPid);
        RunRecord r = new OriginLoadGenerator(c).run();
        System.out.println(r.toJson());
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new OriginLoadMain()).execute(args));
    }
}
