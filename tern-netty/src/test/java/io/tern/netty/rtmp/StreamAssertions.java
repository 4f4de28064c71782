package io.tern.netty.rtmp;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.media.AccessUnit;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import java.util.List;

/** What every real publisher's 720p30 H.264 + 48 kHz AAC stream must look like once ingested. */
final class StreamAssertions {
    private StreamAssertions() {}

    static void assertLive720p30(IngestRecorder.Stream stream, double seconds) {
        AvcConfig avc = stream.avc();
        assertThat(avc.width()).isEqualTo(1280);
        assertThat(avc.height()).isEqualTo(720);
        assertThat(avc.codecs()).startsWith("avc1.64");
        AacConfig aac = stream.aac();
        assertThat(aac.codecs()).isEqualTo("mp4a.40.2");
        assertThat(aac.sampleRateHz()).isEqualTo(48_000);
        assertThat(stream.discontinuities).isEmpty();

        List<AccessUnit> video = stream.track(TrackType.VIDEO);
        List<AccessUnit> audio = stream.track(TrackType.AUDIO);
        assertThat(video.size()).as("video frames").isBetween((int) (seconds * 30) - 2, (int) (seconds * 30) + 2);
        double audioFrames = seconds * 48_000 / AacConfig.SAMPLES_PER_FRAME;
        assertThat(audio.size()).as("audio frames").isBetween((int) audioFrames - 4, (int) audioFrames + 4);

        assertThat(video.get(0).keyframe())
                .as("the stream starts with a keyframe")
                .isTrue();
        List<Long> keyframeMs = video.stream()
                .filter(AccessUnit::keyframe)
                .map(u -> MediaTime.toMillis(u.dts()))
                .toList();
        assertThat(keyframeMs).hasSize((int) Math.ceil(seconds));
        for (int i = 1; i < keyframeMs.size(); i++) {
            assertThat(keyframeMs.get(i) - keyframeMs.get(i - 1))
                    .as("GOP of 1 s")
                    .isBetween(966L, 1034L);
        }
        for (int i = 1; i < video.size(); i++) {
            long stepMs =
                    MediaTime.toMillis(video.get(i).dts() - video.get(i - 1).dts());
            assertThat(stepMs).as("video DTS step %d", i).isBetween(32L, 35L);
            assertThat(video.get(i).pts()).isGreaterThanOrEqualTo(video.get(i).dts());
        }
        for (int i = 1; i < audio.size(); i++) {
            assertThat(audio.get(i).dts())
                    .as("audio DTS %d", i)
                    .isGreaterThan(audio.get(i - 1).dts());
        }
        long startSkewMs =
                MediaTime.toMillis(Math.abs(video.get(0).dts() - audio.get(0).dts()));
        long endSkewMs = MediaTime.toMillis(Math.abs(
                video.get(video.size() - 1).dts() - audio.get(audio.size() - 1).dts()));
        assertThat(startSkewMs).as("audio and video start together").isLessThanOrEqualTo(100);
        assertThat(endSkewMs).as("audio and video end together").isLessThanOrEqualTo(100);
    }
}
