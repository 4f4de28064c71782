package io.tern.bench.origin.playlist;

import java.util.List;

/**
 * One version of a media playlist, parsed once and shared by every viewer that received the same
 * bytes. Immutable. Media sequence numbers are absolute: with {@code EXT-X-SKIP} the first listed
 * segment is {@code mediaSequence + skippedSegments}. URIs are resolved request paths.
 *
 * @param rendition the playlist's own path without its query: the rendition's identity
 * @param partTargetUs PART-TARGET, 0 without EXT-X-PART-INF
 * @param canSkipUntilUs CAN-SKIP-UNTIL, 0 when delta updates are not offered
 * @param partHoldBackUs PART-HOLD-BACK, 0 when absent
 * @param mapUri EXT-X-MAP's URI (the last one listed), or null (MPEG-TS)
 * @param segments the complete segments listed, oldest first
 * @param parts every part listed, oldest first (the open segment's last)
 * @param hint the EXT-X-PRELOAD-HINT TYPE=PART, or null
 */
public record MediaPlaylist(
        String rendition,
        long targetDurationUs,
        long partTargetUs,
        long mediaSequence,
        int skippedSegments,
        boolean endList,
        boolean canBlockReload,
        long canSkipUntilUs,
        boolean canSkipDateRanges,
        long partHoldBackUs,
        String mapUri,
        List<Segment> segments,
        List<Part> parts,
        PreloadHint hint)
        implements Playlist {

    /** A complete segment. */
    public record Segment(long msn, long durationUs, String uri) {}

    /** A part of segment {@code msn}, the {@code index}-th of it (from 0). */
    public record Part(long msn, int index, long durationUs, boolean independent, String uri) {}

    /** The preload-hinted part: the next part of the open segment, not yet complete. */
    public record PreloadHint(long msn, int index, String uri) {}

    /** Sequence number of the first segment listed (after any skipped ones). */
    public long firstListedMsn() {
        return mediaSequence + skippedSegments;
    }

    /** Sequence number of the last complete segment, or {@code firstListedMsn() - 1} if none. */
    public long lastCompleteMsn() {
        return firstListedMsn() + segments.size() - 1;
    }

    /** The segment being written: the one after the last complete segment. */
    public long openMsn() {
        return lastCompleteMsn() + 1;
    }

    public boolean lowLatency() {
        return partTargetUs > 0 && canBlockReload;
    }

    /** The complete segment {@code msn}, or null when it is not listed (skipped, gone or not done). */
    public Segment segment(long msn) {
        long i = msn - firstListedMsn();
        return i >= 0 && i < segments.size() ? segments.get((int) i) : null;
    }

    /** Position of the first listed part of segment {@code msn} in {@link #parts()}, or -1. */
    public int firstPartOf(long msn) {
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            if (p.msn() == msn) {
                return i;
            }
            if (p.msn() > msn) {
                return -1;
            }
        }
        return -1;
    }

    /** The listed part {@code index} of segment {@code msn}, or null. */
    public Part part(long msn, int index) {
        int first = firstPartOf(msn);
        if (first < 0) {
            return null;
        }
        int i = first + index;
        if (i >= parts.size()) {
            return null;
        }
        Part p = parts.get(i);
        return p.msn() == msn && p.index() == index ? p : null;
    }

    /** Parts listed for segment {@code msn}. */
    public int partCount(long msn) {
        int first = firstPartOf(msn);
        if (first < 0) {
            return 0;
        }
        int n = 0;
        for (int i = first; i < parts.size() && parts.get(i).msn() == msn; i++) {
            n++;
        }
        return n;
    }

    /** The last listed part, or null. */
    public Part lastPart() {
        return parts.isEmpty() ? null : parts.get(parts.size() - 1);
    }

    /**
     * The media sequence number a blocking reload asks for next ({@code _HLS_msn}): the segment of
     * the part after the last one listed, as hls.js computes it.
     */
    public long nextBlockingMsn() {
        Part last = lastPart();
        if (last == null) {
            return openMsn();
        }
        return last.msn();
    }

    /**
     * The part a blocking reload asks for next ({@code _HLS_part}): one past the last listed part
     * (past the end of a finished segment means part 0 of the next, section 6.2.5.2).
     */
    public int nextBlockingPart() {
        Part last = lastPart();
        return last == null ? 0 : last.index() + 1;
    }
}
