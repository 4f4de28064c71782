package io.tern.bench.origin.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.playlist.PlaylistParser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The classic player's schedule, driven with simulated time and hand-fed answers. */
class ClassicViewerTest {
    static final int PLAYLISTS = Exchange.playlistConnection(0);
    static final int MEDIA = Exchange.mediaConnection(0);

    static final String ENTRY = "/hls/stream.m3u8";
    static final long MS = 1_000_000L;

    private final RecordingRecorder rec = new RecordingRecorder();
    private final ClassicViewer v = new ClassicViewer(ENTRY, true, 1000 * MS, rec);

    /** An nginx-rtmp playlist listing segments first..last, 1 s each. */
    static MediaPlaylist nginx(long first, long last) {
        StringBuilder sb = new StringBuilder(
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-MEDIA-SEQUENCE:" + first + "\n#EXT-X-TARGETDURATION:1\n");
        for (long m = first; m <= last; m++) {
            sb.append("#EXTINF:1.000,\nstream-").append(m).append(".ts\n");
        }
        return PlaylistParser.parseMedia(ENTRY, sb.toString());
    }

    private Exchange ready(int connection) {
        Exchange ex = v.exchange(connection);
        assertThat(ex.state()).as("connection %d has a request", connection).isEqualTo(Exchange.State.READY);
        return ex;
    }

    /** Starts the viewer at its slot (1 s) and answers its entry playlist with segments 0..9 at 1001 ms. */
    private Exchange joinAtOneSecond() {
        v.onTimer(1000 * MS);
        Exchange p = ready(PLAYLISTS);
        p.sent(1000 * MS);
        v.onPlaylist(p, nginx(0, 9), 400, 1001 * MS);
        return p;
    }

    /** Answers every media request with 200 until none is ready; returns the msns fetched. */
    private List<Long> drainMedia(long nowNs) {
        List<Long> msns = new ArrayList<>();
        for (int guard = 0; guard < 100 && v.exchange(MEDIA).state() == Exchange.State.READY; guard++) {
            Exchange m = v.exchange(MEDIA);
            assertThat(m.kind()).isEqualTo(RequestKind.SEGMENT);
            m.sent(nowNs);
            msns.add(m.msn());
            v.onMedia(m, 300_000, nowNs + 2 * MS);
        }
        return msns;
    }

    @Test
    void startsAtItsRampSlotWithTheEntryPlaylist() {
        assertThat(v.nextDeadlineNs()).isEqualTo(1000 * MS);
        v.onTimer(999 * MS);
        assertThat(v.exchange(PLAYLISTS).state()).isEqualTo(Exchange.State.IDLE);
        v.onTimer(1000 * MS);
        Exchange p = ready(PLAYLISTS);
        assertThat(p.kind()).isEqualTo(RequestKind.MULTIVARIANT);
        assertThat(p.path()).isEqualTo(ENTRY);
        assertThat(p.blocking()).isFalse();
    }

    @Test
    void joinsThreeSegmentsBackAndFetchesEachNewSegmentOnce() {
        Exchange p = joinAtOneSecond();
        assertThat(rec.completed).extracting(RecordingRecorder.Completed::kind).containsExactly(RequestKind.PLAYLIST);
        assertThat(ready(MEDIA).path()).isEqualTo("/hls/stream-7.ts");
        assertThat(drainMedia(1001 * MS)).containsExactly(7L, 8L, 9L);
        // Next reload half a target duration after the previous one was sent.
        assertThat(v.exchange(PLAYLISTS).state()).isEqualTo(Exchange.State.IDLE);
        assertThat(v.nextDeadlineNs()).isEqualTo(1500 * MS);

        v.onTimer(1500 * MS);
        p = ready(PLAYLISTS);
        assertThat(p.kind()).isEqualTo(RequestKind.PLAYLIST);
        p.sent(1500 * MS);
        v.onPlaylist(p, nginx(0, 9), 400, 1501 * MS); // unchanged
        assertThat(drainMedia(1501 * MS)).isEmpty();

        v.onTimer(2000 * MS);
        p = ready(PLAYLISTS);
        p.sent(2000 * MS);
        v.onPlaylist(p, nginx(1, 10), 400, 2001 * MS);
        assertThat(drainMedia(2001 * MS)).containsExactly(10L);
        assertThat(rec.delivered).extracting(RecordingRecorder.Delivered::msn).containsExactly(7L, 8L, 9L, 10L);
        assertThat(rec.delivered).allMatch(d -> d.part() == -1 && d.kind() == RequestKind.SEGMENT);
    }

    @Test
    void aSlowAnswerIsFollowedByAnImmediateReload() {
        v.onTimer(1000 * MS);
        Exchange p = ready(PLAYLISTS);
        p.sent(1000 * MS);
        v.onPlaylist(p, nginx(0, 5), 400, 1700 * MS);
        assertThat(ready(PLAYLISTS).kind()).isEqualTo(RequestKind.PLAYLIST);
    }

    @Test
    void fallingOutOfTheWindowRejoinsAtTheLiveEdge() {
        Exchange p = joinAtOneSecond();
        // The viewer wants segment 7 next but its next playlist starts at 30.
        v.onTimer(1500 * MS);
        p = ready(PLAYLISTS);
        p.sent(1500 * MS);
        Exchange m = v.exchange(MEDIA);
        m.sent(1500 * MS);
        v.onPlaylist(p, nginx(30, 40), 400, 1501 * MS);
        v.onMedia(m, 1, 1502 * MS);
        assertThat(rec.events).containsExactly(ViewerEvent.REJOIN);
        assertThat(ready(MEDIA).msn()).isEqualTo(38);
    }

    @Test
    void aSegmentThatIsGoneIsSkippedAndAServerErrorIsRetriedLater() {
        joinAtOneSecond();
        Exchange m = ready(MEDIA);
        m.sent(1001 * MS);
        v.onStatus(m, 404, 1002 * MS);
        assertThat(ready(MEDIA).msn()).isEqualTo(8);
        m = v.exchange(MEDIA);
        m.sent(1002 * MS);
        v.onStatus(m, 503, 1003 * MS);
        assertThat(rec.failures).containsExactly(Failure.HTTP_4XX, Failure.HTTP_5XX);
        assertThat(v.exchange(MEDIA).state()).isEqualTo(Exchange.State.IDLE);
        v.onTimer(1003 * MS + 500 * MS);
        assertThat(ready(MEDIA).msn()).isEqualTo(8);
    }

    @Test
    void aFailedConnectionRetriesThePlaylistAfterHalfATarget() {
        Exchange p = joinAtOneSecond();
        v.onTimer(1500 * MS);
        p = ready(PLAYLISTS);
        p.sent(1500 * MS);
        v.onFailure(p, Failure.CONNECTION, 1510 * MS);
        assertThat(rec.failedKinds).containsExactly(RequestKind.PLAYLIST);
        assertThat(v.exchange(PLAYLISTS).state()).isEqualTo(Exchange.State.IDLE);
        v.onTimer(2009 * MS);
        assertThat(v.exchange(PLAYLISTS).state()).isEqualTo(Exchange.State.IDLE);
        v.onTimer(2010 * MS);
        assertThat(ready(PLAYLISTS).kind()).isEqualTo(RequestKind.PLAYLIST);
    }

    @Test
    void stoppedViewerAsksForNothing() {
        v.onTimer(1000 * MS);
        Exchange p = ready(PLAYLISTS);
        p.sent(1000 * MS);
        v.stop();
        v.onPlaylist(p, nginx(0, 9), 400, 1001 * MS);
        assertThat(v.exchange(MEDIA).state()).isEqualTo(Exchange.State.IDLE);
        assertThat(v.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
        assertThat(rec.completed).isEmpty();
    }
}
