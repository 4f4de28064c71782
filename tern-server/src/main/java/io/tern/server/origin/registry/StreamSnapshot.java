package io.tern.server.origin.registry;

import java.util.List;

/**
 * One stream at one moment, for the JSON API, logs and tests: who publishes it, what it carries,
 * how it is doing. Taken on the stream's event loop; immutable.
 *
 * @param name               the stream name ({@code cam1} of {@code live/cam1})
 * @param instanceId         this run of the stream: every object URL is under it
 * @param protocol           the ingest, {@code rtmp} or {@code srt}
 * @param publisher          the publisher's address, {@code 203.0.113.7:50122}
 * @param live               false once the publisher left (the stream lingers with EXT-X-ENDLIST)
 * @param startedEpochMs     when the publish was accepted
 * @param uptimeMs           since then
 * @param video              null without video
 * @param audio              null without audio
 * @param ingestBitsPerSecond media bytes received per second over the last seconds, times 8
 * @param accessUnits        frames received
 * @param parts              parts produced (both renditions)
 * @param segments           segments produced (both renditions)
 * @param viewers            client addresses that asked for a media playlist in the last 10 s
 * @param heldRequests       requests held now (blocking reloads, preload-hinted parts)
 * @param discontinuities    EXT-X-DISCONTINUITY written
 * @param timestampJumps     jumps and backward steps the ingest or the packager saw
 * @param droppedFrames      frames the packager dropped (before a keyframe, oversized, no configuration, ...)
 * @param recording          null when the stream is not recorded
 * @param lastErrors         the latest problems, newest last (at most {@code MAX_ERRORS})
 * @param srt                the SRT session's transport counters; null unless {@code protocol} is {@code srt}
 */
public record StreamSnapshot(
        String name,
        String instanceId,
        String protocol,
        String publisher,
        boolean live,
        long startedEpochMs,
        long uptimeMs,
        Video video,
        Audio audio,
        long ingestBitsPerSecond,
        long accessUnits,
        long parts,
        long segments,
        int viewers,
        int heldRequests,
        long discontinuities,
        long timestampJumps,
        long droppedFrames,
        Recording recording,
        List<String> lastErrors,
        Srt srt) {

    public static final int MAX_ERRORS = 10;

    /** @param frameRate frames per second, from the stream's timing (0 before it is known) */
    public record Video(String codecs, int width, int height, double frameRate) {}

    public record Audio(String codecs, int sampleRateHz, int channels) {}

    /**
     * @param file         the file being written, relative to the recording directory, or null between files
     * @param bytesWritten bytes handed to the disk writer for this stream
     * @param droppedBytes bytes dropped because the disk could not keep up
     * @param restarts     times the recording dropped and resumed in a new file
     */
    public record Recording(String file, long bytesWritten, long droppedBytes, long restarts) {}

    /**
     * An SRT publisher's transport, from its session's counters (the last ones once it closed).
     *
     * @param latencyMs               the negotiated receive latency
     * @param keyLengthBytes          AES key length, 16, 24 or 32; 0 when not encrypted
     * @param rttMs                   smoothed round-trip time
     * @param receiveBitsPerSecond    payload bitrate over the last second
     * @param packetsReceived         data packets received, retransmissions included
     * @param packetsLost             packets found missing (each later recovered or dropped)
     * @param packetsRetransmitted    retransmitted packets received
     * @param packetsDroppedTooLate   packets given up on, their play time passed
     * @param packetsUndecryptable    packets that did not decrypt
     * @param tsContinuityErrors      MPEG-TS continuity counter errors the demuxer saw (a gap in the media)
     */
    public record Srt(
            int latencyMs,
            int keyLengthBytes,
            double rttMs,
            long receiveBitsPerSecond,
            long packetsReceived,
            long packetsLost,
            long packetsRetransmitted,
            long packetsDroppedTooLate,
            long packetsUndecryptable,
            long tsContinuityErrors) {}
}
