package io.tern.bench.origin.load;

import io.tern.bench.origin.viewer.ViewerMode;
import picocli.CommandLine.Option;

/** The generator's options that the standalone generator and the runner share (a picocli mixin). */
public final class GeneratorOptions {
    @Option(
            names = "--renditions",
            defaultValue = "all",
            description = "all: the variant and its separate audio rendition (Tern); first: the variant only")
    String renditions;

    @Option(names = "--loop-threads", defaultValue = "1", description = "generator event loop threads (default 1)")
    int loopThreads;

    @Option(names = "--request-timeout-ms", defaultValue = "10000")
    long requestTimeoutMs;

    @Option(names = "--max-playlist-bytes", defaultValue = "1048576")
    int maxPlaylistBytes;

    public OriginLoadConfig config(
            int port,
            String entryPath,
            ViewerMode mode,
            int viewers,
            double rampSeconds,
            double settleSeconds,
            double measureSeconds,
            long serverPid,
            long publisherPid) {
        return new OriginLoadConfig(
                port,
                entryPath,
                mode,
                viewers,
                rampSeconds,
                settleSeconds,
                measureSeconds,
                allRenditions(),
                loopThreads,
                requestTimeoutMs,
                maxPlaylistBytes,
                serverPid,
                publisherPid);
    }

    public boolean allRenditions() {
        return switch (renditions) {
            case "all" -> true;
            case "first" -> false;
            default ->
                throw new IllegalArgumentException("--renditions must be all or first, not '" + renditions + "'");
        };
    }

    public String renditions() {
        return renditions;
    }

    public int loopThreads() {
        return loopThreads;
    }
}
