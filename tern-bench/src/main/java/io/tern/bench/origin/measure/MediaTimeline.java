package io.tern.bench.origin.measure;

import io.tern.bench.origin.playlist.MediaPlaylist;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * When each segment and part of each rendition was first seen by any viewer of the run, and
 * how the live edge advanced. Shared by every event loop (methods are synchronized; with one
 * loop, the default, the lock is never contended).
 *
 * <ul>
 *   <li><b>Listed</b>: the first time any viewer received a playlist listing the item (as
 *       EXTINF or EXT-X-PART). A part's or segment's delivery delay is its download's
 *       completion minus that time.
 *   <li><b>Exists</b>: for a part, the earlier of listed and the first completed download of it
 *       as a preload hint (the server finishes the hinted response when the part is complete).
 *       A blocked reload's release lateness is its answer's arrival minus that time: the first
 *       viewer released is 0 by construction, the rest measure the server's fan-out.
 *   <li><b>Edge</b>: each segment's end on the media timeline (the sum of EXTINF durations from
 *       the first segment seen), against the time the segment was first listed.
 * </ul>
 */
public final class MediaTimeline {
    /** Segments remembered per rendition (a ring; 17 minutes of 1 s segments). */
    static final int SEGMENT_SLOTS = 1024;

    /** Parts remembered per segment. */
    static final int PARTS_PER_SEGMENT = 32;

    private static final long NONE = Long.MAX_VALUE;

    private final Map<String, Track> tracks = new HashMap<>();
    private String edgeRendition;
    private long partTargetUs;
    private long targetDurationUs;

    private static final class Track {
        final long[] segmentTag = filled(SEGMENT_SLOTS, -1);
        final long[] segmentListedNs = filled(SEGMENT_SLOTS, NONE);
        final long[] partTag = filled(SEGMENT_SLOTS * PARTS_PER_SEGMENT, -1);
        final long[] partListedNs = filled(SEGMENT_SLOTS * PARTS_PER_SEGMENT, NONE);
        final long[] partExistsNs = filled(SEGMENT_SLOTS * PARTS_PER_SEGMENT, NONE);
        long lastEndMsn = -1;
        long lastEndUs;
        long[] edgeNs = new long[64];
        long[] edgeMediaUs = new long[64];
        int edgeCount;

        void edge(long nowNs, long mediaUs) {
            if (edgeCount == edgeNs.length) {
                edgeNs = Arrays.copyOf(edgeNs, edgeCount * 2);
                edgeMediaUs = Arrays.copyOf(edgeMediaUs, edgeCount * 2);
            }
            edgeNs[edgeCount] = nowNs;
            edgeMediaUs[edgeCount++] = mediaUs;
        }
    }

    private static long[] filled(int n, long value) {
        long[] a = new long[n];
        Arrays.fill(a, value);
        return a;
    }

    private Track track(String rendition) {
        Track t = tracks.get(rendition);
        if (t == null) {
            t = new Track();
            tracks.put(rendition, t);
            if (edgeRendition == null) {
                edgeRendition = rendition;
            }
        }
        return t;
    }

    private static int segmentSlot(long msn) {
        return (int) (msn & (SEGMENT_SLOTS - 1));
    }

    private static int partSlot(long msn, int part) {
        return segmentSlot(msn) * PARTS_PER_SEGMENT + part;
    }

    /**
     * A playlist version arrived for the first time at {@code nowNs}: its items not seen before
     * are listed now. Call once per distinct version (the playlist cache does).
     */
    public synchronized void listed(MediaPlaylist mp, long nowNs) {
        Track t = track(mp.rendition());
        if (mp.rendition().equals(edgeRendition)) {
            partTargetUs = mp.partTargetUs();
            targetDurationUs = mp.targetDurationUs();
        }
        for (MediaPlaylist.Segment s : mp.segments()) {
            int slot = segmentSlot(s.msn());
            if (t.segmentTag[slot] != s.msn()) {
                if (t.segmentTag[slot] > s.msn()) {
                    continue; // an older segment than the slot's: long gone
                }
                t.segmentTag[slot] = s.msn();
                t.segmentListedNs[slot] = nowNs;
                advanceEdge(t, s, nowNs);
            }
        }
        for (MediaPlaylist.Part p : mp.parts()) {
            if (p.index() >= PARTS_PER_SEGMENT) {
                continue;
            }
            int slot = claimPart(t, p.msn(), p.index());
            if (slot >= 0 && t.partListedNs[slot] == NONE) {
                t.partListedNs[slot] = nowNs;
                t.partExistsNs[slot] = Math.min(t.partExistsNs[slot], nowNs);
            }
        }
    }

    private static void advanceEdge(Track t, MediaPlaylist.Segment s, long nowNs) {
        if (t.lastEndMsn >= 0 && s.msn() <= t.lastEndMsn) {
            return;
        }
        long missing = t.lastEndMsn < 0 ? 0 : s.msn() - t.lastEndMsn - 1;
        // A segment nobody saw (a gap of more than a playlist window) is taken to be as long as this one.
        t.lastEndUs += (missing + 1) * s.durationUs();
        t.lastEndMsn = s.msn();
        t.edge(nowNs, t.lastEndUs);
    }

    /** The part's slot, reset for {@code msn} if it held an older segment's part; -1 if the slot is newer. */
    private static int claimPart(Track t, long msn, int part) {
        int slot = partSlot(msn, part);
        if (t.partTag[slot] != msn) {
            if (t.partTag[slot] > msn) {
                return -1;
            }
            t.partTag[slot] = msn;
            t.partListedNs[slot] = NONE;
            t.partExistsNs[slot] = NONE;
        }
        return slot;
    }

    /**
     * Delivery delay of a part ({@code part >= 0}) or segment ({@code part < 0}) whose download
     * completed at {@code nowNs}: now minus its first listing, or -1 when no playlist has listed
     * it yet (a hinted part that completed before any viewer's reload returned).
     */
    public synchronized long deliveryDelayNs(String rendition, long msn, int part, long nowNs) {
        Track t = tracks.get(rendition);
        if (t == null) {
            return -1;
        }
        long listed;
        if (part < 0) {
            int slot = segmentSlot(msn);
            listed = t.segmentTag[slot] == msn ? t.segmentListedNs[slot] : NONE;
        } else {
            int slot = part < PARTS_PER_SEGMENT ? partSlot(msn, part) : -1;
            listed = slot >= 0 && t.partTag[slot] == msn ? t.partListedNs[slot] : NONE;
        }
        return listed == NONE ? -1 : Math.max(0, nowNs - listed);
    }

    /** A preload-hinted part's download completed: the part exists since {@code nowNs} at the latest. */
    public synchronized void hintedPartCompleted(String rendition, long msn, int part, long nowNs) {
        if (part >= PARTS_PER_SEGMENT) {
            return;
        }
        int slot = claimPart(track(rendition), msn, part);
        if (slot >= 0) {
            Track t = tracks.get(rendition);
            t.partExistsNs[slot] = Math.min(t.partExistsNs[slot], nowNs);
        }
    }

    /**
     * Release lateness of a blocking reload for {@code _HLS_msn=msn&_HLS_part=part} answered at
     * {@code nowNs} with {@code mp}: now minus the moment the part it waited for existed. A part
     * index past the end of a finished segment means part 0 of the next (section 6.2.5.2).
     * Returns -1 when {@code mp} does not list that part (released without what it asked for).
     */
    public synchronized long releaseLatenessNs(MediaPlaylist mp, long msn, int part, long nowNs) {
        MediaPlaylist.Part target = mp.part(msn, part);
        if (target == null && mp.segment(msn) != null && part >= mp.partCount(msn)) {
            target = mp.part(msn + 1, 0);
        }
        if (target == null) {
            return -1;
        }
        Track t = tracks.get(mp.rendition());
        if (t == null || target.index() >= PARTS_PER_SEGMENT) {
            return -1;
        }
        int slot = partSlot(target.msn(), target.index());
        long exists = t.partTag[slot] == target.msn() ? t.partExistsNs[slot] : NONE;
        return exists == NONE ? -1 : Math.max(0, nowNs - exists);
    }

    /**
     * Media seconds the live edge advanced per wall second between {@code fromNs} and
     * {@code toNs}: the least-squares slope of segment end (media time) over the time each
     * segment was first listed, for the first rendition seen; NaN with fewer than 3 segments.
     */
    public synchronized double edgeAdvance(long fromNs, long toNs) {
        Track t = edgeRendition == null ? null : tracks.get(edgeRendition);
        if (t == null) {
            return Double.NaN;
        }
        return slope(t.edgeNs, t.edgeMediaUs, t.edgeCount, fromNs, toNs);
    }

    /** Least-squares slope of media µs over wall ns (scaled to seconds per second) in [fromNs, toNs]. */
    static double slope(long[] wallNs, long[] mediaUs, int count, long fromNs, long toNs) {
        int n = 0;
        double sx = 0;
        double sy = 0;
        for (int i = 0; i < count; i++) {
            if (wallNs[i] >= fromNs && wallNs[i] <= toNs) {
                n++;
                sx += (wallNs[i] - fromNs) / 1e9;
                sy += mediaUs[i] / 1e6;
            }
        }
        if (n < 3) {
            return Double.NaN;
        }
        double mx = sx / n;
        double my = sy / n;
        double num = 0;
        double den = 0;
        for (int i = 0; i < count; i++) {
            if (wallNs[i] >= fromNs && wallNs[i] <= toNs) {
                double dx = (wallNs[i] - fromNs) / 1e9 - mx;
                num += dx * (mediaUs[i] / 1e6 - my);
                den += dx * dx;
            }
        }
        return den == 0 ? Double.NaN : num / den;
    }

    /** Segments first listed within [fromNs, toNs] on the edge rendition. */
    public synchronized int edgeSegments(long fromNs, long toNs) {
        Track t = edgeRendition == null ? null : tracks.get(edgeRendition);
        int n = 0;
        for (int i = 0; t != null && i < t.edgeCount; i++) {
            if (t.edgeNs[i] >= fromNs && t.edgeNs[i] <= toNs) {
                n++;
            }
        }
        return n;
    }

    /** PART-TARGET of the first rendition seen (0: no parts). */
    public synchronized long partTargetUs() {
        return partTargetUs;
    }

    /** EXT-X-TARGETDURATION of the first rendition seen. */
    public synchronized long targetDurationUs() {
        return targetDurationUs;
    }

    /** Renditions seen. */
    public synchronized int renditions() {
        return tracks.size();
    }
}
