package io.tern.netty.rtmp;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.testkit.FfmpegSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ffmpeg and GStreamer's rtmp2sink publish a generated 720p30 H.264 + AAC stream each, at the same
 * time, to one listener; both arrive whole. Then a second ffmpeg on a live name is refused.
 */
class RealPublishersTest {
    private static final Duration PEER_TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final IngestRecorder recorder = new IngestRecorder();
    private ListenerFixture fixture;

    @BeforeEach
    void start() throws InterruptedException {
        fixture = new ListenerFixture(1, RtmpListenerSettings.defaults(), recorder);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private String url(String name) {
        return fixture.url(name);
    }

    static List<String> ffmpegPublish(String url, int seconds) {
        return FfmpegSource.file(RtmpPeers.FFMPEG.toString())
                .zeroLatency()
                .seconds(seconds)
                .format("flv")
                .command(url);
    }

    private List<String> gstreamerPublish(String url, int seconds) {
        return List.of(
                RtmpPeers.GST_LAUNCH.toString(),
                "-q",
                "videotestsrc",
                "pattern=ball", // moving, as testsrc2: on still bars x264 puts an IDR every few frames
                "num-buffers=" + seconds * 30,
                "!",
                "video/x-raw,format=I420,width=1280,height=720,framerate=30/1",
                "!",
                "x264enc",
                "tune=zerolatency",
                "speed-preset=veryfast",
                "key-int-max=30",
                "!",
                "h264parse",
                "!",
                "flvmux",
                "name=mux",
                "streamable=true",
                "!",
                "rtmp2sink",
                "location=" + url,
                "audiotestsrc",
                "num-buffers=" + (int) Math.ceil(seconds * 48_000 / 1024.0),
                "samplesperbuffer=1024",
                "!",
                "audio/x-raw,rate=48000,channels=2",
                "!",
                "audioconvert",
                "!",
                "avenc_aac",
                "!",
                "aacparse",
                "!",
                "mux.");
    }

    @Test
    void ffmpegAndGstreamerPublishAtOnceAndBothArriveWhole() throws Exception {
        RtmpPeers.requireFfmpeg();
        RtmpPeers.requireGstreamer();

        Process ffmpeg = Processes.start(ffmpegPublish(url("ffmpeg?token=t1"), 3), dir, "ffmpeg");
        Process gst = Processes.start(gstreamerPublish(url("gst"), 3), dir, "gst");
        Processes.Result ffmpegResult = Processes.finish(ffmpeg, dir, "ffmpeg", PEER_TIMEOUT);
        Processes.Result gstResult = Processes.finish(gst, dir, "gst", PEER_TIMEOUT);

        assertThat(ffmpegResult.exitCode())
                .as("ffmpeg: %s", ffmpegResult.stderr())
                .isZero();
        assertThat(ffmpegResult.stderr()).as("ffmpeg prints no error").isEmpty();
        assertThat(gstResult.exitCode())
                .as("gst-launch: %s", gstResult.stderr())
                .isZero();
        IngestRecorder.Stream fromFfmpeg = recorder.streams.get("ffmpeg");
        IngestRecorder.Stream fromGst = recorder.streams.get("gst");
        assertThat(fromFfmpeg.ended.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(fromGst.ended.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(fromFfmpeg.query).isEqualTo("token=t1");
        StreamAssertions.assertLive720p30(fromFfmpeg, 3);
        StreamAssertions.assertLive720p30(fromGst, 3);
        assertThat(fromFfmpeg.endReason).as("ffmpeg unpublishes").isEqualTo("FCUnpublish");
        assertThat(fromGst.endReason).as("rtmp2sink unpublishes").isEqualTo("FCUnpublish");
        assertThat(recorder.metadata.get("ffmpeg")).containsKeys("width", "height", "videocodecid");
    }

    @Test
    void aSecondPublisherOnALiveNameIsRefusedAndFfmpegSaysWhy() throws Exception {
        RtmpPeers.requireFfmpeg();
        recorder.live.add("dup"); // the registry says: live

        Processes.Result second = Processes.run(ffmpegPublish(url("dup"), 2), dir, "second", PEER_TIMEOUT);

        assertThat(second.exitCode()).as("ffmpeg fails").isNotZero();
        assertThat(second.stderr()).contains("stream dup is already live");
        assertThat(recorder.refusals).containsExactly("stream dup is already live");
        assertThat(recorder.streams).doesNotContainKey("dup");
        assertThat(recorder.closed)
                .anySatisfy(
                        c -> assertThat(c.detail()).isEqualTo("publish of 'dup' refused: stream dup is already live"));
    }
}
