package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.interop.HlsPlayer.Playback;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The playback check: ffmpeg publishes 720p30 H.264/AAC (GOP 1 s) over RTMP with a token,
 * and hls.js in headless Chromium plays the origin's LL-HLS for 60 s in low-latency mode: playback
 * advances at real time, never stalls, and stays within 1.5 s of the live edge, both as hls.js
 * reports its latency and against EXT-X-PROGRAM-DATE-TIME; with video and audio as separate
 * renditions and muxed into one, each time with both tracks buffered and audio decoded.
 */
class LivePlaybackTest {
    private static final int SECONDS = 60;

    @ParameterizedTest
    @ValueSource(strings = {"separate", "muxed"})
    void hlsJsPlaysAtTheLiveEdgeForAMinuteWithoutStalls(String renditions) throws Exception {
        FfmpegPublisher.require();
        try (OriginFixture origin = new OriginFixture("renditions=" + renditions);
                HlsPlayer player = new HlsPlayer();
                FfmpegPublisher ffmpeg = FfmpegPublisher.rtmp(origin.rtmpUrl("cam1"), 0)) {
            origin.awaitStream("cam1", 20_000);
            Playback playback = player.play(origin.playUrl("cam1"), SECONDS);
            System.out.println("hls.js, direct, " + renditions + ": " + playback.summary());

            assertThat(playback.lowLatency()).as("hls.js in low-latency mode").isTrue();
            assertThat(playback.partTarget()).as("PART-TARGET hls.js read").isBetween(0.2, 0.21);
            assertThat(playback.width()).isEqualTo(1280);
            assertThat(playback.height()).isEqualTo(720);
            assertThat(playback.raw().get("bufferTracks"))
                    .as("the tracks hls.js made source buffers for")
                    .asString()
                    .contains("audio", "video");
            assertThat(((Number) playback.raw().get("audioDecodedBytes")).longValue())
                    .as("audio decoded")
                    .isPositive();
            assertThat(playback.samples()).hasSizeGreaterThanOrEqualTo(SECONDS);
            assertThat(playback.advanceRate())
                    .as("media seconds per wall second")
                    .isBetween(0.95, 1.05);
            assertThat(playback.stalls()).as("stalls; %s", playback.summary()).isZero();
            assertThat(playback.waiting())
                    .as("waiting events; %s", playback.summary())
                    .isZero();
            assertThat(playback.maxLatency(3))
                    .as("hls.js latency; %s", playback.summary())
                    .isLessThan(1.5);
            assertThat(playback.maxPdtLatency(3))
                    .as("PROGRAM-DATE-TIME latency; %s", playback.summary())
                    .isLessThan(1.5);
            assertThat(playback.parts()).as("parts hls.js loaded").isGreaterThan(SECONDS * 4);
            assertThat(ffmpeg.isAlive())
                    .as("ffmpeg still publishing: %s", ffmpeg.log())
                    .isTrue();
        }
    }
}
