package io.tern.bench.origin.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.playlist.PlaylistParser;
import io.tern.bench.origin.testing.TernPlaylists;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The low-latency player's decisions, on playlists from Tern's own packager, in simulated time. */
class LowLatencyViewerTest {
    static final int PLAYLISTS = Exchange.playlistConnection(0);
    static final int MEDIA = Exchange.mediaConnection(0);

    static final String ENTRY = "/live/stream/index.m3u8";
    static final long MS = 1_000_000L;

    private final RecordingRecorder rec = new RecordingRecorder();
    private final TernPlaylists stream = new TernPlaylists();
    private long now = 1000 * MS;

    private Exchange ready(Viewer v, int connection) {
        Exchange ex = v.exchange(connection);
        assertThat(ex.state()).as("connection %d has a request", connection).isEqualTo(Exchange.State.READY);
        return ex;
    }

    private MediaPlaylist video(String query) {
        return PlaylistParser.parseMedia(TernPlaylists.videoPath(), stream.video(query));
    }

    private MediaPlaylist audio(String query) {
        return PlaylistParser.parseMedia(TernPlaylists.audioPath(), stream.audio(query));
    }

    /** Joins a viewer: multivariant, then both media playlists (plain), as they are asked for. */
    private LowLatencyViewer joined(boolean allRenditions) {
        LowLatencyViewer v = new LowLatencyViewer(ENTRY, allRenditions, now, rec);
        v.onTimer(now);
        Exchange p = ready(v, PLAYLISTS);
        p.sent(now);
        v.onPlaylist(p, PlaylistParser.parse(ENTRY, stream.multivariant()), 300, now += MS);
        assertThat(v.connections()).isEqualTo(allRenditions ? 4 : 2);
        for (int i = 0; i < (allRenditions ? 2 : 1); i++) {
            p = ready(v, Exchange.playlistConnection(i));
            assertThat(p.kind()).isEqualTo(RequestKind.PLAYLIST);
            assertThat(p.path()).isEqualTo(i == 0 ? TernPlaylists.videoPath() : TernPlaylists.audioPath());
            p.sent(now);
            v.onPlaylist(p, i == 0 ? video("") : audio(""), 3000, now += MS);
        }
        return v;
    }

    /** Answers the video's media requests with 200 until the next one is the preload hint (or nothing). */
    private List<Exchange> fetchAvailable(Viewer v) {
        return fetchAvailable(v, 0);
    }

    /** The same for rendition {@code rendition}'s media connection. */
    private List<Exchange> fetchAvailable(Viewer v, int rendition) {
        List<Exchange> done = new ArrayList<>();
        for (int guard = 0; guard < 100; guard++) {
            Exchange m = v.exchange(Exchange.mediaConnection(rendition));
            if (m.state() != Exchange.State.READY || m.kind() == RequestKind.HINTED_PART) {
                break;
            }
            m.sent(now);
            done.add(snapshot(m));
            v.onMedia(m, 1000, now += MS);
        }
        return done;
    }

    private static Exchange snapshot(Exchange m) {
        Exchange copy = new Exchange(m.connection());
        copy.prepare(m.kind(), m.rendition(), m.path(), m.msn(), m.part(), m.skip());
        return copy;
    }

    @Test
    void joinsPartHoldBackFromTheEndAtAnIndependentPartAndFetchesInitFirst() {
        stream.advance(8 * 30 + 17); // segment 8 has two parts and a hinted third
        LowLatencyViewer v = joined(false);
        List<Exchange> media = fetchAvailable(v);
        assertThat(media.get(0).kind()).isEqualTo(RequestKind.INIT);
        assertThat(media.get(0).path()).isEqualTo("/live/stream/i1/video-init-0.mp4");
        // PART-HOLD-BACK (0.625 s) back from the end lands in segment 7; its last independent part is 7.0.
        assertThat(media.subList(1, media.size()))
                .extracting(e -> e.kind() + " " + e.msn() + "." + e.part())
                .containsExactly("PART 7.0", "PART 7.1", "PART 7.2", "PART 7.3", "PART 7.4", "PART 8.0", "PART 8.1");
        Exchange hint = ready(v, MEDIA);
        assertThat(hint.kind()).isEqualTo(RequestKind.HINTED_PART);
        assertThat(hint.msn()).isEqualTo(8);
        assertThat(hint.part()).isEqualTo(2);
        assertThat(hint.path()).isEqualTo("/live/stream/i1/video-p42.m4s");
    }

    @Test
    void startPartIsTheIndependentOneBeforeTheHoldBackPoint() {
        MediaPlaylist mp = PlaylistParser.parseMedia(
                TernPlaylists.videoPath(), stream.advance(8 * 30 + 17).video(""));
        MediaPlaylist.Part start = mp.parts().get(LowLatencyViewer.startPart(mp));
        assertThat(start.independent()).isTrue();
        assertThat(start.msn()).isEqualTo(7);
        assertThat(start.index()).isZero();
        // Audio parts are all independent: the start is the part holding the hold-back point itself.
        MediaPlaylist a = PlaylistParser.parseMedia(TernPlaylists.audioPath(), stream.audio(""));
        MediaPlaylist.Part as = a.parts().get(LowLatencyViewer.startPart(a));
        long fromEnd = 0;
        for (int i = a.parts().indexOf(as); i < a.parts().size(); i++) {
            fromEnd += a.parts().get(i).durationUs();
        }
        assertThat(fromEnd).isGreaterThanOrEqualTo(a.partHoldBackUs());
        assertThat(fromEnd - as.durationUs()).isLessThan(a.partHoldBackUs());
    }

    @Test
    void reloadsBlockForThePartAfterTheLastListedWithDeltaUpdates() {
        stream.advance(8 * 30 + 17);
        LowLatencyViewer v = joined(false);
        Exchange p = ready(v, PLAYLISTS);
        assertThat(p.kind()).isEqualTo(RequestKind.BLOCKING_PLAYLIST);
        assertThat(p.path()).isEqualTo(TernPlaylists.videoPath());
        assertThat(p.msn()).isEqualTo(8);
        assertThat(p.part()).isEqualTo(2);
        assertThat(p.skip()).isEqualTo(SkipMode.V2); // Tern says CAN-SKIP-DATERANGES=YES
        // The answer, once the part exists, is reported as a release and followed at once by the next.
        p.sent(now);
        stream.advance(6);
        v.onPlaylist(p, video("_HLS_skip=v2"), 2000, now += 200 * MS);
        assertThat(rec.released).containsExactly(new RecordingRecorder.Released(8, 2));
        Exchange next = ready(v, PLAYLISTS);
        assertThat(next.kind()).isEqualTo(RequestKind.BLOCKING_PLAYLIST);
        assertThat(next.msn()).isEqualTo(8);
        assertThat(next.part()).isEqualTo(3);
    }

    @Test
    void listedPartsComeBeforeTheHintAndTheHintIsFetchedOnce() {
        stream.advance(8 * 30 + 17);
        LowLatencyViewer v = joined(false);
        fetchAvailable(v);
        Exchange hint = ready(v, MEDIA);
        hint.sent(now);
        // While the hint is held, the part completes and a reload lists it and hints the next.
        stream.advance(6);
        v.onMedia(hint, 9000, now += 200 * MS);
        assertThat(rec.delivered.get(rec.delivered.size() - 1))
                .isEqualTo(new RecordingRecorder.Delivered(TernPlaylists.videoPath(), RequestKind.HINTED_PART, 8, 2));
        assertThat(v.exchange(MEDIA).state())
                .as("nothing to fetch until a newer playlist hints the next part")
                .isEqualTo(Exchange.State.IDLE);
        Exchange p = ready(v, PLAYLISTS);
        p.sent(now);
        v.onPlaylist(p, video(""), 2000, now += MS);
        Exchange next = ready(v, MEDIA);
        assertThat(next.kind()).isEqualTo(RequestKind.HINTED_PART);
        assertThat(next.msn()).isEqualTo(8);
        assertThat(next.part()).isEqualTo(3);
    }

    @Test
    void aViewerASegmentBehindFetchesWholeSegmentsUntilItCatchesUp() {
        stream.advance(8 * 30 + 17);
        LowLatencyViewer v = joined(false);
        Exchange init = ready(v, MEDIA);
        init.sent(now);
        // Three seconds pass before the init segment arrives; the viewer's playlist is now that late.
        stream.advance(3 * 30);
        Exchange p = ready(v, PLAYLISTS);
        p.sent(now);
        v.onPlaylist(p, video(""), 2000, now += MS);
        v.onMedia(init, 800, now += MS);
        List<Exchange> media = fetchAvailable(v);
        assertThat(media)
                .extracting(e -> e.kind() + " " + e.msn() + (e.kind() == RequestKind.SEGMENT ? "" : "." + e.part()))
                .startsWith("SEGMENT 7", "SEGMENT 8", "SEGMENT 9", "PART 10.0");
        assertThat(rec.events)
                .containsExactly(
                        ViewerEvent.SEGMENT_FALLBACK, ViewerEvent.SEGMENT_FALLBACK, ViewerEvent.SEGMENT_FALLBACK);
    }

    @Test
    void aSkippedSegmentStillNeededMakesTheNextReloadAFullOne() {
        stream.advance(8 * 30 + 17);
        LowLatencyViewer v = joined(false);
        Exchange init = ready(v, MEDIA);
        init.sent(now);
        stream.advance(12 * 30); // far enough for a delta update to skip the viewer's position
        Exchange p = ready(v, PLAYLISTS);
        p.sent(now);
        MediaPlaylist delta = video("_HLS_skip=v2");
        assertThat(delta.firstListedMsn()).isGreaterThan(7);
        v.onPlaylist(p, delta, 2000, now += MS);
        assertThat(rec.events).containsExactly(ViewerEvent.FULL_RELOAD_NEEDED);
        v.onMedia(init, 800, now += MS);
        assertThat(v.exchange(MEDIA).state())
                .as("the segment it needs is not listed")
                .isEqualTo(Exchange.State.IDLE);
        Exchange full = ready(v, PLAYLISTS);
        assertThat(full.skip()).isEqualTo(SkipMode.NONE);
        full.sent(now);
        v.onPlaylist(full, video(""), 5000, now += MS);
        Exchange m = ready(v, MEDIA);
        assertThat(m.kind()).isEqualTo(RequestKind.SEGMENT);
        assertThat(m.msn()).isEqualTo(7);
        assertThat(ready(v, PLAYLISTS).skip()).isEqualTo(SkipMode.V2);
    }

    @Test
    void eachRenditionFetchesOnItsOwnConnectionsSoOneHeldHintDoesNotDelayTheOther() {
        stream.advance(8 * 30 + 17);
        LowLatencyViewer v = joined(true);
        // The video's hinted part is requested and held by the server...
        fetchAvailable(v, 0);
        Exchange videoHint = ready(v, Exchange.mediaConnection(0));
        assertThat(videoHint.kind()).isEqualTo(RequestKind.HINTED_PART);
        videoHint.sent(now);
        // ...while the audio rendition goes on with its init segment and parts on its own connection.
        List<Exchange> audio = fetchAvailable(v, 1);
        assertThat(audio.get(0).kind()).isEqualTo(RequestKind.INIT);
        assertThat(audio.get(0).path()).isEqualTo("/live/stream/i1/audio-init-0.mp4");
        assertThat(audio.subList(1, audio.size()))
                .isNotEmpty()
                .allMatch(e -> e.kind() == RequestKind.PART
                        && e.rendition() == 1
                        && e.path().contains("/audio-p"));
        assertThat(ready(v, Exchange.mediaConnection(1)).kind()).isEqualTo(RequestKind.HINTED_PART);
        // And each rendition's blocking reload has its own connection too.
        assertThat(ready(v, Exchange.playlistConnection(0)).path()).isEqualTo(TernPlaylists.videoPath());
        assertThat(ready(v, Exchange.playlistConnection(1)).path()).isEqualTo(TernPlaylists.audioPath());
        assertThat(v.exchange(Exchange.playlistConnection(1)).kind()).isEqualTo(RequestKind.BLOCKING_PLAYLIST);
    }

    @Test
    void onlyTheVariantWhenAskedForTheFirstRendition() {
        stream.advance(8 * 30 + 17);
        LowLatencyViewer v = joined(false);
        List<Exchange> media = fetchAvailable(v);
        assertThat(media).allMatch(e -> e.rendition() == 0);
        assertThat(media).allMatch(e -> e.path().contains("/video"));
        assertThat(v.connections()).isEqualTo(2);
    }

    @Test
    void aPlaylistWithoutPartsIsFollowedLikeAClassicPlayer() {
        LowLatencyViewer v = new LowLatencyViewer("/hls/stream.m3u8", true, now, rec);
        v.onTimer(now);
        Exchange p = ready(v, PLAYLISTS);
        p.sent(now);
        v.onPlaylist(p, ClassicViewerTest.nginx(0, 9), 400, now += MS);
        assertThat(ready(v, MEDIA).msn()).isEqualTo(7);
        assertThat(v.exchange(PLAYLISTS).state()).isEqualTo(Exchange.State.IDLE);
        assertThat(v.nextDeadlineNs()).isEqualTo(now - MS + 500 * MS);
    }
}
