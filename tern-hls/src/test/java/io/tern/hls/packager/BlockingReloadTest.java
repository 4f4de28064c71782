package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.media.TrackType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** §6.2.5.2 Blocking Playlist Reload, modelled as Ready / Wait / Error plus events. */
class BlockingReloadTest {
    private final SyntheticStream stream = new SyntheticStream();
    private final Harness h = Harness.av();
    private long fedMs;

    private void feedMs(long ms) {
        h.feed(stream.generate(fedMs, ms));
        fedMs += ms;
    }

    private M3u8 video() {
        return h.playlist(TrackType.VIDEO);
    }

    private List<HlsEvent.PlaylistReady> readyFor(long ticket) {
        return h.events(HlsEvent.PlaylistReady.class).stream()
                .filter(e -> java.util.Arrays.stream(e.tickets()).anyMatch(t -> t == ticket))
                .toList();
    }

    @Test
    void aRequestForTheNextPartIsHeldAndReleasedWhenThatPartIsListed() {
        feedMs(3_000);
        M3u8 before = video();
        long msn = before.lastPartMsn();
        int part = before.lastPartIndex() + 1;

        PlaylistAnswer a = h.request(TrackType.VIDEO, Harness.query(msn, part));

        assertThat(a).isInstanceOf(PlaylistAnswer.Wait.class);
        long ticket = ((PlaylistAnswer.Wait) a).ticket();
        assertThat(readyFor(ticket)).isEmpty();
        feedMs(250);
        List<HlsEvent.PlaylistReady> ready = readyFor(ticket);
        assertThat(ready).hasSize(1);
        M3u8 answer = M3u8.parse(ready.get(0).body());
        M3u8.Seg seg =
                answer.segments.stream().filter(s -> s.msn == msn).findFirst().orElseThrow();
        assertThat(seg.parts).hasSizeGreaterThan(part);
        assertThat(h.packager.heldRequests()).isZero();
    }

    @Test
    void aRequestForAPartAlreadyListedIsAnsweredAtOnce() {
        feedMs(3_000);
        M3u8 now = video();
        PlaylistAnswer a = h.request(TrackType.VIDEO, Harness.query(now.lastPartMsn(), now.lastPartIndex()));
        assertThat(a).isInstanceOf(PlaylistAnswer.Ready.class);
        // Older segments, even ones gone from the playlist, get the whole current playlist.
        assertThat(h.request(TrackType.VIDEO, Harness.query(0, 0))).isInstanceOf(PlaylistAnswer.Ready.class);
    }

    @Test
    void anMsnWithoutPartWaitsForTheWholeSegment() {
        feedMs(3_100);
        M3u8 now = video();
        long next = now.completeSegments().get(now.completeSegments().size() - 1).msn + 1;

        long ticket = ((PlaylistAnswer.Wait) h.request(TrackType.VIDEO, Harness.query(next, -1))).ticket();

        // Parts of that segment come out, but the request waits for its EXTINF.
        feedMs(800);
        assertThat(readyFor(ticket)).isEmpty();
        assertThat(video().lastPartMsn()).isEqualTo(next);
        feedMs(1_300);
        M3u8 answer = M3u8.parse(readyFor(ticket).get(0).body());
        assertThat(answer.completeSegments().get(answer.completeSegments().size() - 1).msn)
                .isEqualTo(next);
    }

    @Test
    void aPartIndexPastTheEndOfAFinishedSegmentMeansPartZeroOfTheNext() {
        feedMs(2_500);
        M3u8 now = video();
        long open = now.lastPartMsn();
        // Segment `open` will have 10 parts; ask for its 13th while it is still being written.
        long ticket = ((PlaylistAnswer.Wait) h.request(TrackType.VIDEO, Harness.query(open, 12))).ticket();

        long[] releasedAt = {-1};
        h.afterEach = au -> {
            if (releasedAt[0] < 0 && !readyFor(ticket).isEmpty()) {
                M3u8 answer = M3u8.parse(readyFor(ticket).get(0).body());
                releasedAt[0] = answer.lastPartMsn() * 100 + answer.lastPartIndex();
            }
        };
        feedMs(2_000);

        assertThat(releasedAt[0]).as("released with part 0 of the next segment").isEqualTo((open + 1) * 100);
        // The same rule for a request arriving after the segment finished: already there.
        PlaylistAnswer late = h.request(TrackType.VIDEO, Harness.query(open, 11));
        assertThat(late).isInstanceOf(PlaylistAnswer.Ready.class);
    }

    @Test
    void partWithoutMsnIsABadRequest() {
        feedMs(1_000);
        PlaylistAnswer a = h.request(TrackType.VIDEO, "_HLS_part=2");
        assertThat(a)
                .isInstanceOfSatisfying(
                        PlaylistAnswer.Error.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(h.packager.heldRequests()).isZero();
    }

    @Test
    void anMsnMoreThanTwoAheadIsABadRequestAndTwoAheadIsHeld() {
        feedMs(3_000);
        long last = video().completeSegments().get(video().completeSegments().size() - 1).msn;

        assertThat(h.request(TrackType.VIDEO, Harness.query(last + 3, -1)))
                .isInstanceOfSatisfying(
                        PlaylistAnswer.Error.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(h.request(TrackType.VIDEO, Harness.query(last + 2, -1))).isInstanceOf(PlaylistAnswer.Wait.class);
    }

    @Test
    void aPartBeyondTheAdvancePartLimitIsABadRequest() {
        feedMs(2_500);
        M3u8 now = video();
        long limit = (long) Math.ceil(3 / now.partTarget);

        assertThat(h.request(TrackType.VIDEO, Harness.query(now.lastPartMsn(), now.lastPartIndex() + limit + 1)))
                .isInstanceOfSatisfying(
                        PlaylistAnswer.Error.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(h.request(TrackType.VIDEO, Harness.query(now.lastPartMsn(), now.lastPartIndex() + limit)))
                .isInstanceOf(PlaylistAnswer.Wait.class);
    }

    @Test
    void aRequestHeldPastThreeTargetDurationsGets503() {
        feedMs(3_000);
        M3u8 now = video();
        long asked = h.nowNs;
        PlaylistAnswer.Wait w = (PlaylistAnswer.Wait)
                h.request(TrackType.VIDEO, Harness.query(now.lastPartMsn(), now.lastPartIndex() + 1));
        assertThat(w.deadlineNs()).isEqualTo(asked + 3L * now.targetDuration * 1_000_000_000L);
        assertThat(h.packager.nextDeadlineNs()).isEqualTo(w.deadlineNs());

        // The publisher stalls: no part comes.
        h.advance(3L * now.targetDuration * 1_000_000_000L - 1);
        assertThat(h.events(HlsEvent.RequestFailed.class)).isEmpty();
        h.advance(1);
        List<HlsEvent.RequestFailed> failed = h.events(HlsEvent.RequestFailed.class);
        assertThat(failed).hasSize(1);
        assertThat(failed.get(0).status()).isEqualTo(503);
        assertThat(failed.get(0).tickets()).containsExactly(w.ticket());
        assertThat(h.packager.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void waitersOfTheSamePartShareOneRenderedPlaylist() {
        feedMs(3_000);
        M3u8 now = video();
        String q = Harness.query(now.lastPartMsn(), now.lastPartIndex() + 1);
        long t1 = ((PlaylistAnswer.Wait) h.request(TrackType.VIDEO, q)).ticket();
        long t2 = ((PlaylistAnswer.Wait) h.request(TrackType.VIDEO, q)).ticket();
        long t3 = ((PlaylistAnswer.Wait) h.request(TrackType.VIDEO, q + "&_HLS_skip=YES")).ticket();

        feedMs(250);

        assertThat(readyFor(t1).get(0)).isSameAs(readyFor(t2).get(0));
        assertThat(readyFor(t1).get(0).tickets()).containsExactlyInAnyOrder(t1, t2);
        assertThat(readyFor(t3)).hasSize(1);
    }

    @Test
    void aCancelledRequestIsForgotten() {
        feedMs(3_000);
        M3u8 now = video();
        long t = ((PlaylistAnswer.Wait)
                        h.request(TrackType.VIDEO, Harness.query(now.lastPartMsn(), now.lastPartIndex() + 1)))
                .ticket();
        h.packager.cancel(t);
        assertThat(h.packager.heldRequests()).isZero();
        feedMs(500);
        assertThat(readyFor(t)).isEmpty();
        assertThat(h.packager.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theEndOfTheStreamAnswersHeldRequestsAndLaterOnesIgnoreTheDirectives() {
        feedMs(3_000);
        M3u8 now = video();
        long t = ((PlaylistAnswer.Wait) h.request(TrackType.VIDEO, Harness.query(now.lastPartMsn() + 1, 3))).ticket();
        h.end();

        M3u8 answer = M3u8.parse(readyFor(t).get(0).body());
        assertThat(answer.endList).isTrue();
        // With EXT-X-ENDLIST, _HLS_msn/_HLS_part and _HLS_skip are ignored (§6.2.5.1, §6.2.5.2).
        PlaylistAnswer after = h.request(TrackType.VIDEO, Harness.query(now.lastPartMsn() + 2, 0) + "&_HLS_skip=YES");
        assertThat(after).isInstanceOf(PlaylistAnswer.Ready.class);
        M3u8 ended = M3u8.parse(((PlaylistAnswer.Ready) after).body());
        assertThat(ended.endList).isTrue();
        assertThat(ended.skip).isNull();
    }

    @Test
    void aPlaylistRequestedBeforeAnyMediaWaitsForTheFirstPart() {
        PlaylistAnswer a = h.request(TrackType.AUDIO, "");
        assertThat(a).isInstanceOf(PlaylistAnswer.Wait.class);
        long ticket = ((PlaylistAnswer.Wait) a).ticket();
        feedMs(600);
        M3u8 p = M3u8.parse(readyFor(ticket).get(0).body());
        assertThat(p.parts()).hasSize(1);
    }

    @Test
    void malformedDirectivesAreBadRequests() {
        feedMs(1_000);
        for (String q : List.of("_HLS_msn=abc", "_HLS_msn=-1", "_HLS_msn=1&_HLS_msn=2", "_HLS_skip=NO", "_HLS_msn=")) {
            assertThat(h.request(TrackType.VIDEO, q))
                    .as(q)
                    .isInstanceOfSatisfying(
                            PlaylistAnswer.Error.class,
                            e -> assertThat(e.status()).isEqualTo(400));
        }
        // Parameters that are not delivery directives are ignored.
        assertThat(h.request(TrackType.VIDEO, "token=abc&_HLS_foo=1")).isInstanceOf(PlaylistAnswer.Ready.class);
    }
}
