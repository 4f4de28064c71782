package io.tern.bench.origin.viewer;

import io.tern.bench.origin.playlist.MediaPlaylist;
import java.util.List;

/**
 * A low-latency player, as hls.js behaves in low-latency mode:
 *
 * <ul>
 *   <li>reloads each media playlist with {@code _HLS_msn}/{@code _HLS_part} for the part after the
 *       last one listed, as soon as the previous reload returns (the server holds it), with
 *       {@code _HLS_skip=YES} (or {@code v2} when date ranges may be skipped) while the viewer
 *       has a recent playlist;
 *   <li>joins PART-HOLD-BACK from the end, at the last independent part before that point;
 *   <li>fetches every new part once, and the preload-hinted part as soon as it is hinted;
 *   <li>fetches a whole segment instead when it is a segment or more behind the live edge, or
 *       when the parts of the segment it needs are no longer listed.
 * </ul>
 *
 * A playlist without parts or without CAN-BLOCK-RELOAD is followed as a classic viewer would.
 */
public final class LowLatencyViewer extends Viewer {
    public LowLatencyViewer(String entryPath, boolean allRenditions, long startAtNs, ViewerRecorder recorder) {
        super(entryPath, allRenditions, startAtNs, recorder);
    }

    @Override
    void join(Rendition r, MediaPlaylist mp) {
        List<MediaPlaylist.Part> parts = mp.parts();
        if (!mp.lowLatency() || parts.isEmpty()) {
            joinThreeSegmentsBack(r, mp);
            return;
        }
        int start = startPart(mp);
        MediaPlaylist.Part p = parts.get(start);
        r.nextMsn = p.msn();
        r.nextPart = p.index();
    }

    /**
     * Position in {@code mp.parts()} where playback starts: the part that holds the point
     * PART-HOLD-BACK (else three part targets) before the end, moved back to the last independent
     * part at or before it within the listed parts (any part when no part says INDEPENDENT).
     */
    static int startPart(MediaPlaylist mp) {
        List<MediaPlaylist.Part> parts = mp.parts();
        long holdBackUs = mp.partHoldBackUs() > 0 ? mp.partHoldBackUs() : 3 * mp.partTargetUs();
        long fromEndUs = 0;
        int i = parts.size() - 1;
        while (i > 0) {
            fromEndUs += parts.get(i).durationUs();
            if (fromEndUs >= holdBackUs) {
                break;
            }
            i--;
        }
        boolean anyIndependent = false;
        for (MediaPlaylist.Part p : parts) {
            anyIndependent |= p.independent();
        }
        if (!anyIndependent) {
            return i;
        }
        for (int j = i; j >= 0; j--) {
            if (parts.get(j).independent()) {
                return j;
            }
        }
        for (int j = i + 1; j < parts.size(); j++) {
            if (parts.get(j).independent()) {
                return j;
            }
        }
        return i;
    }

    @Override
    void preparePlaylist(Rendition r, MediaPlaylist mp, Exchange ex) {
        if (!mp.lowLatency()) {
            ex.prepare(RequestKind.PLAYLIST, r.index, r.playlistPath, 0, 0, SkipMode.NONE);
            return;
        }
        SkipMode skip = SkipMode.NONE;
        if (mp.canSkipUntilUs() > 0 && !r.needFullReload) {
            skip = mp.canSkipDateRanges() ? SkipMode.V2 : SkipMode.YES;
        }
        ex.prepare(
                RequestKind.BLOCKING_PLAYLIST,
                r.index,
                r.playlistPath,
                mp.nextBlockingMsn(),
                mp.nextBlockingPart(),
                skip);
    }

    @Override
    long nextPlaylistDueNs(Rendition r, MediaPlaylist mp, long sentNs, long nowNs) {
        return mp.lowLatency() ? nowNs : halfTargetAfter(mp, sentNs, nowNs);
    }

    @Override
    boolean nextMedia(Rendition r, MediaPlaylist mp, Exchange ex, long nowNs) {
        // Bounded: each turn either prepares a request or moves past one finished segment.
        for (int guard = 0; guard < 4; guard++) {
            long m = r.nextMsn;
            if (m < mp.firstListedMsn()) {
                return false; // skipped by a delta update: wait for the full reload
            }
            MediaPlaylist.Segment seg = mp.segment(m);
            int listedParts = mp.partCount(m);
            if (seg != null) {
                boolean behind = mp.openMsn() - m >= 2;
                if ((r.nextPart == 0 && behind) || listedParts == 0) {
                    recorder.event(ViewerEvent.SEGMENT_FALLBACK, nowNs);
                    ex.prepare(RequestKind.SEGMENT, r.index, seg.uri(), m, -1, SkipMode.NONE);
                    r.nextMsn = m + 1;
                    r.nextPart = 0;
                    return true;
                }
                if (r.nextPart >= listedParts) {
                    r.nextMsn = m + 1;
                    r.nextPart = 0;
                    continue;
                }
            }
            MediaPlaylist.Part part = mp.part(m, r.nextPart);
            if (part != null) {
                ex.prepare(RequestKind.PART, r.index, part.uri(), m, part.index(), SkipMode.NONE);
                advancePart(r, m, part.index());
                return true;
            }
            MediaPlaylist.PreloadHint hint = mp.hint();
            if (hint != null && hint.msn() == m && hint.index() == r.nextPart) {
                ex.prepare(RequestKind.HINTED_PART, r.index, hint.uri(), m, hint.index(), SkipMode.NONE);
                advancePart(r, m, hint.index());
                return true;
            }
            return false;
        }
        return false;
    }

    private static void advancePart(Rendition r, long msn, int index) {
        r.nextMsn = msn;
        r.nextPart = index + 1;
    }
}
