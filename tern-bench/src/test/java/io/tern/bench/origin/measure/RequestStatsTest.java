package io.tern.bench.origin.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.origin.viewer.Failure;
import io.tern.bench.origin.viewer.RequestKind;
import io.tern.bench.origin.viewer.ViewerEvent;
import org.junit.jupiter.api.Test;

class RequestStatsTest {
    static final long MS = 1_000_000L;

    @Test
    void countsOnlyInsideItsWindow() {
        MediaTimeline t = new MediaTimeline();
        RequestStats s = new RequestStats(t, 1000 * MS, 2000 * MS);
        s.completed(RequestKind.PART, 5 * MS, 100, 999 * MS);
        s.completed(RequestKind.PART, 5 * MS, 100, 1000 * MS);
        s.completed(RequestKind.PART, 7 * MS, 300, 1999 * MS);
        s.completed(RequestKind.PART, 5 * MS, 100, 2000 * MS);
        s.failed(RequestKind.SEGMENT, Failure.TIMEOUT, 1500 * MS);
        s.failed(RequestKind.SEGMENT, Failure.TIMEOUT, 2500 * MS);
        s.event(ViewerEvent.REJOIN, 1500 * MS);
        assertThat(s.completed(RequestKind.PART)).isEqualTo(2);
        assertThat(s.bodyBytes(RequestKind.PART)).isEqualTo(400);
        assertThat(s.latencyUs(RequestKind.PART).getMaxValue()).isBetween(6990L, 7010L);
        assertThat(s.errors(RequestKind.SEGMENT, Failure.TIMEOUT)).isEqualTo(1);
        assertThat(s.totalErrors()).isEqualTo(1);
        assertThat(s.totalCompleted()).isEqualTo(2);
        assertThat(s.events(ViewerEvent.REJOIN)).isEqualTo(1);
    }

    @Test
    void hintedPartsMarkExistenceEvenBeforeTheWindowAndDeliveriesBeforeListingCountAsZero() {
        MediaTimeline t = new MediaTimeline();
        RequestStats s = new RequestStats(t, 1000 * MS, 2000 * MS);
        s.delivered("/v.m3u8", 0, RequestKind.HINTED_PART, 3, 1, 1200 * MS);
        s.delivered("/a.m3u8", 1, RequestKind.HINTED_PART, 3, 1, 1200 * MS);
        assertThat(s.deliveredBeforeListed()).isEqualTo(2);
        assertThat(s.partDelayUs().getTotalCount()).isEqualTo(2);
        assertThat(s.variantPartDelayUs().getTotalCount())
                .as("the variant's parts alone")
                .isEqualTo(1);
        assertThat(s.partDelayUs().getMaxValue()).isZero();
        assertThat(s.segmentDelayUs().getTotalCount()).isZero();
    }

    @Test
    void mergesLoops() {
        MediaTimeline t = new MediaTimeline();
        RequestStats a = new RequestStats(t, 0, 10 * MS);
        RequestStats b = new RequestStats(t, 0, 10 * MS);
        a.completed(RequestKind.PLAYLIST, MS, 10, 1);
        b.completed(RequestKind.PLAYLIST, 3 * MS, 20, 1);
        b.failed(RequestKind.INIT, Failure.HTTP_4XX, 1);
        b.timerLag(2 * MS, 1);
        a.add(b);
        assertThat(a.completed(RequestKind.PLAYLIST)).isEqualTo(2);
        assertThat(a.bodyBytes(RequestKind.PLAYLIST)).isEqualTo(30);
        assertThat(a.errors(RequestKind.INIT)).isEqualTo(1);
        assertThat(a.latencyUs(RequestKind.PLAYLIST).getTotalCount()).isEqualTo(2);
        assertThat(a.timerLagUs().getTotalCount()).isEqualTo(1);
    }

    @Test
    void phasesSendTheRampToTheWarmUpRecorder() {
        MediaTimeline t = new MediaTimeline();
        RequestStats warm = new RequestStats(t, 0, 1000 * MS);
        RequestStats measured = new RequestStats(t, 1000 * MS, 2000 * MS);
        Phases p = new Phases(warm, measured, 1000 * MS);
        p.completed(RequestKind.SEGMENT, MS, 1, 500 * MS);
        p.completed(RequestKind.SEGMENT, MS, 1, 1500 * MS);
        p.completed(RequestKind.SEGMENT, MS, 1, 1600 * MS);
        assertThat(warm.completed(RequestKind.SEGMENT)).isEqualTo(1);
        assertThat(p.measured().completed(RequestKind.SEGMENT)).isEqualTo(2);
    }
}
