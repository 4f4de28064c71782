package io.tern.bench.origin.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tern.bench.origin.report.Fields;
import io.tern.bench.origin.report.RunRecord;
import io.tern.bench.origin.testing.FakeLowLatencyOrigin;
import io.tern.bench.origin.viewer.ViewerMode;
import org.junit.jupiter.api.Test;

/**
 * The whole generator (Netty adapter, cache, timeline, report) against a small fake LL origin on
 * 127.0.0.1, for about two seconds each: blocking reloads held by the server, a hinted part
 * streamed with chunked encoding, connections the server closes, and the report's fields.
 */
class GeneratorAgainstFakeOriginTest {
    private static RunRecord run(FakeLowLatencyOrigin origin, ViewerMode mode) throws Exception {
        return new OriginLoadGenerator(new OriginLoadConfig(
                        origin.port(), "/live/x/index.m3u8", mode, 3, 0.1, 0.4, 1.6, true, 1, 5000, 65536, 0, 0))
                .run();
    }

    @Test
    void lowLatencyViewersBlockFetchPartsAndHintsAndSurviveClosedConnections() throws Exception {
        try (FakeLowLatencyOrigin origin = new FakeLowLatencyOrigin(25)) {
            RunRecord r = run(origin, ViewerMode.LL);
            assertThat(r.number(Fields.ERRORS))
                    .as(r.string(Fields.ERROR_DETAIL))
                    .isZero();
            assertThat(r.number(Fields.ofKind("blocking_playlist", "requests"))).isGreaterThan(10);
            assertThat(r.number(Fields.ofKind("hinted_part", "requests"))).isGreaterThan(10);
            assertThat(r.number(Fields.ofKind("hinted_part", "bytes")))
                    .as("chunked bodies are counted whole")
                    .isEqualTo(2000 * r.number(Fields.ofKind("hinted_part", "requests")));
            assertThat(r.number(Fields.ofKind("segment", "requests"))).isZero();
            assertThat(r.number(Fields.RELEASES)).isGreaterThan(10);
            assertThat(r.number(Fields.RELEASE_LATENESS_P99_MS)).isLessThan(100);
            assertThat(r.number("part_deliveries")).isGreaterThan(10);
            assertThat(r.number("released_without_target")).isZero();
            assertThat(r.number(Fields.EDGE_ADVANCE)).isCloseTo(1.0, within(0.25));
            assertThat(r.number(Fields.PART_TARGET_MS)).isEqualTo(100.0);
            assertThat(r.number("connects"))
                    .as("reconnected after Connection: close")
                    .isGreaterThan(6);
            assertThat(origin.heldReloads()).isPositive();
            assertThat(origin.streamedParts()).isPositive();
            assertThat(r.number(Fields.GENERATOR_CPU_US_PER_REQUEST)).isPositive();
            assertThat(r.string(Fields.MODE)).isEqualTo("ll");
            assertThat(r.number(Fields.VIEWERS)).isEqualTo(3);
        }
    }

    @Test
    void classicViewersPollAndFetchSegmentsOnly() throws Exception {
        try (FakeLowLatencyOrigin origin = new FakeLowLatencyOrigin(1000)) {
            RunRecord r = run(origin, ViewerMode.CLASSIC);
            assertThat(r.number(Fields.ERRORS))
                    .as(r.string(Fields.ERROR_DETAIL))
                    .isZero();
            assertThat(r.number(Fields.ofKind("playlist", "requests"))).isGreaterThan(3);
            assertThat(r.number(Fields.ofKind("segment", "requests"))).isGreaterThan(3);
            assertThat(r.number(Fields.ofKind("part", "requests"))).isZero();
            assertThat(r.number(Fields.ofKind("blocking_playlist", "requests"))).isZero();
            assertThat(r.number("segment_deliveries")).isEqualTo(r.number(Fields.ofKind("segment", "requests")));
            assertThat(r.number(Fields.SEGMENT_DELAY_P99_MS)).isPositive();
            assertThat(r.number("connects"))
                    .as("two keep-alive connections per viewer")
                    .isEqualTo(6);
            assertThat(origin.heldReloads()).isZero();
        }
    }
}
