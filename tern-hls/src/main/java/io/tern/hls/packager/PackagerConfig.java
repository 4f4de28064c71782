package io.tern.hls.packager;

import java.util.Objects;

/**
 * The packager's settings. Every value is checked at construction and a bad one is reported with
 * its option name and value, so a server fails at start-up rather than at the first publish.
 *
 * @param instanceId names this run of the stream; every object URI lives under it, so a stream
 *     that restarts (a new publisher) never reuses the name of an object a CDN may have cached
 * @param partTargetMs the nominal part duration; the declared PART-TARGET is this rounded to
 *     whole video frames plus a quarter frame of tolerance for jittery timestamps
 * @param segmentTargetMs the nominal segment duration; segments are cut at keyframes
 * @param targetDurationS EXT-X-TARGETDURATION, constant for the stream; 0 means the segment
 *     target rounded up to whole seconds
 * @param playlistWindowMs the media a playlist lists (at least three target durations, §6.2.2)
 * @param discontinuityGapMs a gap between two frames of a track longer than this is a timestamp
 *     jump, packaged as a discontinuity
 * @param audioFramesPerChunk AAC frames per CMAF chunk (video has one frame per chunk)
 * @param maxHeldRequests blocking requests held at once; more get 503
 * @param maxRetainedBytes media kept per stream (listed and recently removed objects); when
 *     exceeded the oldest removed objects go first, then the window shrinks to its minimum
 * @param maxAccessUnitBytes a larger frame is dropped and counted
 * @param partDelivery how a part still being written is reported
 * @param renditions whether a stream with video and audio has one rendition per track or one for
 *     both (a stream of one track has one rendition either way)
 */
public record PackagerConfig(
        String instanceId,
        int partTargetMs,
        int segmentTargetMs,
        int targetDurationS,
        int playlistWindowMs,
        int discontinuityGapMs,
        int audioFramesPerChunk,
        int maxHeldRequests,
        long maxRetainedBytes,
        int maxAccessUnitBytes,
        PartDelivery partDelivery,
        RenditionMode renditions) {

    // The defaults and bounds the origin's options read, so each is written once.
    public static final int DEFAULT_PART_TARGET_MS = 200;
    public static final int MIN_PART_TARGET_MS = 50;
    public static final int MAX_PART_TARGET_MS = 5000;
    public static final int DEFAULT_SEGMENT_TARGET_MS = 2000;
    public static final int MIN_SEGMENT_TARGET_MS = 500;
    public static final int MAX_SEGMENT_TARGET_MS = 60_000;
    public static final int DEFAULT_PLAYLIST_WINDOW_MS = 24_000;

    /**
     * Muxed: measured at half the requests and 0.43-0.68x the server CPU per viewer of separate
     * renditions (bench/results/origin-muxed), and hls.js and ffmpeg play both.
     */
    public static final RenditionMode DEFAULT_RENDITIONS = RenditionMode.MUXED;
    /** The least the option takes; the packager also needs three target durations (§6.2.2). */
    public static final int MIN_PLAYLIST_WINDOW_MS = 1000;

    public static final int MAX_PLAYLIST_WINDOW_MS = 3_600_000;
    public static final int MAX_HELD_REQUESTS = 10_000_000;

    public PackagerConfig {
        Objects.requireNonNull(partDelivery, "partDelivery");
        Objects.requireNonNull(renditions, "renditions");
        if (instanceId == null || !instanceId.matches("[A-Za-z0-9_-]{1,64}")) {
            throw invalid("instanceId", instanceId, "1 to 64 characters of [A-Za-z0-9_-]");
        }
        check("partTargetMs", partTargetMs, MIN_PART_TARGET_MS, MAX_PART_TARGET_MS);
        check("segmentTargetMs", segmentTargetMs, MIN_SEGMENT_TARGET_MS, MAX_SEGMENT_TARGET_MS);
        if (segmentTargetMs < 2 * partTargetMs) {
            throw invalid("segmentTargetMs", segmentTargetMs, "at least twice partTargetMs (" + partTargetMs + ")");
        }
        if (targetDurationS != 0) {
            check("targetDurationS", targetDurationS, 1, 60);
            if (targetDurationS * 1000L < segmentTargetMs) {
                throw invalid(
                        "targetDurationS", targetDurationS, "at least segmentTargetMs (" + segmentTargetMs + " ms)");
            }
        }
        long minWindowMs = 3000L * effectiveTargetDurationS(targetDurationS, segmentTargetMs);
        if (playlistWindowMs < minWindowMs || playlistWindowMs > MAX_PLAYLIST_WINDOW_MS) {
            throw invalid(
                    "playlistWindowMs",
                    playlistWindowMs,
                    "between three target durations (" + minWindowMs + ") and " + MAX_PLAYLIST_WINDOW_MS);
        }
        check("discontinuityGapMs", discontinuityGapMs, 100, 60_000);
        check("audioFramesPerChunk", audioFramesPerChunk, 1, 64);
        check("maxHeldRequests", maxHeldRequests, 1, MAX_HELD_REQUESTS);
        if (maxRetainedBytes < 1 << 20) {
            throw invalid("maxRetainedBytes", maxRetainedBytes, "at least 1048576");
        }
        check("maxAccessUnitBytes", maxAccessUnitBytes, 1024, 64 << 20);
    }

    /** The defaults: 200 ms parts, 2 s segments, a 24 s window, streamed growing parts, muxed renditions. */
    public static PackagerConfig defaults(String instanceId) {
        return new PackagerConfig(
                instanceId,
                DEFAULT_PART_TARGET_MS,
                DEFAULT_SEGMENT_TARGET_MS,
                0,
                DEFAULT_PLAYLIST_WINDOW_MS,
                1000,
                3,
                10_000,
                256L << 20,
                8 << 20,
                PartDelivery.STREAM_CHUNKS,
                DEFAULT_RENDITIONS);
    }

    /** EXT-X-TARGETDURATION in seconds. */
    public int targetDurationSeconds() {
        return effectiveTargetDurationS(targetDurationS, segmentTargetMs);
    }

    public PackagerConfig withPartTargetMs(int v) {
        return new PackagerConfig(
                instanceId,
                v,
                segmentTargetMs,
                targetDurationS,
                playlistWindowMs,
                discontinuityGapMs,
                audioFramesPerChunk,
                maxHeldRequests,
                maxRetainedBytes,
                maxAccessUnitBytes,
                partDelivery,
                renditions);
    }

    public PackagerConfig withSegmentTargetMs(int v) {
        return new PackagerConfig(
                instanceId,
                partTargetMs,
                v,
                targetDurationS,
                playlistWindowMs,
                discontinuityGapMs,
                audioFramesPerChunk,
                maxHeldRequests,
                maxRetainedBytes,
                maxAccessUnitBytes,
                partDelivery,
                renditions);
    }

    public PackagerConfig withPlaylistWindowMs(int v) {
        return new PackagerConfig(
                instanceId,
                partTargetMs,
                segmentTargetMs,
                targetDurationS,
                v,
                discontinuityGapMs,
                audioFramesPerChunk,
                maxHeldRequests,
                maxRetainedBytes,
                maxAccessUnitBytes,
                partDelivery,
                renditions);
    }

    public PackagerConfig withMaxHeldRequests(int v) {
        return new PackagerConfig(
                instanceId,
                partTargetMs,
                segmentTargetMs,
                targetDurationS,
                playlistWindowMs,
                discontinuityGapMs,
                audioFramesPerChunk,
                v,
                maxRetainedBytes,
                maxAccessUnitBytes,
                partDelivery,
                renditions);
    }

    public PackagerConfig withMaxRetainedBytes(long v) {
        return new PackagerConfig(
                instanceId,
                partTargetMs,
                segmentTargetMs,
                targetDurationS,
                playlistWindowMs,
                discontinuityGapMs,
                audioFramesPerChunk,
                maxHeldRequests,
                v,
                maxAccessUnitBytes,
                partDelivery,
                renditions);
    }

    public PackagerConfig withPartDelivery(PartDelivery v) {
        return new PackagerConfig(
                instanceId,
                partTargetMs,
                segmentTargetMs,
                targetDurationS,
                playlistWindowMs,
                discontinuityGapMs,
                audioFramesPerChunk,
                maxHeldRequests,
                maxRetainedBytes,
                maxAccessUnitBytes,
                v,
                renditions);
    }

    public PackagerConfig withRenditions(RenditionMode v) {
        return new PackagerConfig(
                instanceId,
                partTargetMs,
                segmentTargetMs,
                targetDurationS,
                playlistWindowMs,
                discontinuityGapMs,
                audioFramesPerChunk,
                maxHeldRequests,
                maxRetainedBytes,
                maxAccessUnitBytes,
                partDelivery,
                v);
    }

    private static int effectiveTargetDurationS(int targetDurationS, int segmentTargetMs) {
        return targetDurationS != 0 ? targetDurationS : (segmentTargetMs + 999) / 1000;
    }

    private static void check(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw invalid(option, value, "between " + min + " and " + max);
        }
    }

    private static IllegalArgumentException invalid(String option, Object value, String expected) {
        return new IllegalArgumentException(option + "=" + value + ": must be " + expected);
    }
}
