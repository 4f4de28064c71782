package io.tern.bench.origin.load;

import io.tern.bench.origin.viewer.ViewerMode;

/**
 * One run of the viewer load generator against an origin on 127.0.0.1.
 *
 * @param port the origin's HTTP port on 127.0.0.1
 * @param entryPath the playlist a viewer opens (multivariant, or a media playlist)
 * @param viewers simulated viewers, each with two keep-alive connections per rendition
 * @param rampSeconds viewers start evenly over this time
 * @param settleSeconds after the ramp, before the measured window opens
 * @param measureSeconds the measured window: every figure counts only what happened in it
 * @param allRenditions also load the variant's separate audio rendition (both playlists and media)
 * @param loopThreads event loop threads of the generator
 * @param requestTimeoutMs a request without a complete answer after this long is a timeout
 * @param serverPid root of the measured server's process tree (0: none)
 * @param publisherPid the encoder's PID, whose CPU is reported apart (0: none)
 */
public record OriginLoadConfig(
        int port,
        String entryPath,
        ViewerMode mode,
        int viewers,
        double rampSeconds,
        double settleSeconds,
        double measureSeconds,
        boolean allRenditions,
        int loopThreads,
        long requestTimeoutMs,
        int maxPlaylistBytes,
        long serverPid,
        long publisherPid) {
    public static final int MAX_VIEWERS = 20_000;
    public static final double MAX_SECONDS = 3600;

    public OriginLoadConfig {
        check("port", port, 1, 65535);
        check("viewers", viewers, 1, MAX_VIEWERS);
        check("loop-threads", loopThreads, 1, 64);
        check("request-timeout-ms", requestTimeoutMs, 100, 600_000);
        check("max-playlist-bytes", maxPlaylistBytes, 1024, 64 << 20);
        seconds("ramp-seconds", rampSeconds, 0);
        seconds("settle-seconds", settleSeconds, 0);
        seconds("measure-seconds", measureSeconds, 0.5);
        if (entryPath == null || !entryPath.startsWith("/")) {
            throw new IllegalArgumentException("entry path must start with '/': " + entryPath);
        }
    }

    private static void check(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "--" + option + " must be between " + min + " and " + max + ", not " + value);
        }
    }

    private static void seconds(String option, double value, double min) {
        if (!(value >= min && value <= MAX_SECONDS)) {
            throw new IllegalArgumentException(
                    "--" + option + " must be between " + min + " and " + MAX_SECONDS + ", not " + value);
        }
    }

    /** Open files this run may need: two sockets per viewer and rendition (two at most), plus the JVM's own. */
    public long filesNeeded() {
        return filesNeeded(viewers);
    }

    public static long filesNeeded(int viewers) {
        return 4L * viewers + 256;
    }
}
