package io.tern.bench.origin.viewer;

import io.tern.bench.origin.playlist.MediaPlaylist;

/**
 * A classic HLS player: reloads the media playlist every half target duration (section 6.3.4's
 * rule for an unchanged playlist, which is also what hls.js does at the live edge), joins three
 * segments back from the end and fetches each new segment once, in order. It ignores parts,
 * hints and blocking directives.
 */
public final class ClassicViewer extends Viewer {
    public ClassicViewer(String entryPath, boolean allRenditions, long startAtNs, ViewerRecorder recorder) {
        super(entryPath, allRenditions, startAtNs, recorder);
    }

    @Override
    void join(Rendition r, MediaPlaylist mp) {
        joinThreeSegmentsBack(r, mp);
    }

    @Override
    void preparePlaylist(Rendition r, MediaPlaylist mp, Exchange ex) {
        ex.prepare(RequestKind.PLAYLIST, r.index, r.playlistPath, 0, 0, SkipMode.NONE);
    }

    @Override
    long nextPlaylistDueNs(Rendition r, MediaPlaylist mp, long sentNs, long nowNs) {
        return halfTargetAfter(mp, sentNs, nowNs);
    }

    @Override
    boolean nextMedia(Rendition r, MediaPlaylist mp, Exchange ex, long nowNs) {
        MediaPlaylist.Segment s = mp.segment(r.nextMsn);
        if (s == null) {
            return false;
        }
        ex.prepare(RequestKind.SEGMENT, r.index, s.uri(), s.msn(), -1, SkipMode.NONE);
        r.nextMsn++;
        return true;
    }
}
