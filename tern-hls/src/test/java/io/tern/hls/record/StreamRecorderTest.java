package io.tern.hls.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.mp4.Mp4Reader;
import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Recording rules: the packager's chunks into rotating two-track fMP4 files. */
class StreamRecorderTest {
    private final SyntheticStream stream = new SyntheticStream();

    private MemoryDisk record(Harness h, StreamRecorder recorder, Runnable feed) {
        MemoryDisk disk = new MemoryDisk();
        int[] seen = {0};
        h.afterEach = au -> {
            for (; seen[0] < h.events.size(); seen[0]++) {
                recorder.onEvent(h.events.get(seen[0]));
            }
            disk.apply(recorder);
        };
        feed.run();
        h.end();
        for (; seen[0] < h.events.size(); seen[0]++) {
            recorder.onEvent(h.events.get(seen[0]));
        }
        disk.apply(recorder);
        return disk;
    }

    @Test
    void filesRotateByDurationAndEachStartsWithAKeyframe() throws java.io.IOException {
        Harness h = Harness.av();
        StreamRecorder recorder = new StreamRecorder("cam1", StreamLayout.VIDEO_AND_AUDIO, 6_000);
        MemoryDisk disk = record(h, recorder, () -> h.feed(stream.generate(0, 20_000)));

        assertThat(disk.open).isEmpty();
        assertThat(disk.files).hasSize(4); // 6 + 6 + 6 + 2 s
        long videoSamples = 0;
        long audioSamples = 0;
        long lastVideoEnd = 0;
        for (String path : disk.files.keySet()) {
            assertThat(path).startsWith("cam1/2025-12-01/cam1-20251201T2000");
            Mp4Reader r = Mp4Reader.read(disk.bytes(path));
            assertThat(r.tracks).containsOnlyKeys(1, 2);
            List<Mp4Reader.Sample> video = r.samples(1);
            assertThat(video.get(0).sync()).isTrue();
            assertThat(video.get(0).dts()).isEqualTo(lastVideoEnd);
            Mp4Reader.Sample last = video.get(video.size() - 1);
            lastVideoEnd = last.dts() + last.duration();
            videoSamples += video.size();
            audioSamples += r.samples(2).size();
            assertThat(FragmentedMp4Tail.completeLength(ByteSource.of(disk.bytes(path))))
                    .isEqualTo(disk.bytes(path).length);
        }
        assertThat(videoSamples).isEqualTo(600);
        assertThat(audioSamples).isBetween(935L, 938L);
        assertThat(new ArrayList<>(disk.files.keySet()))
                .containsExactly(
                        "cam1/2025-12-01/cam1-20251201T200000.000Z.mp4",
                        "cam1/2025-12-01/cam1-20251201T200006.000Z.mp4",
                        "cam1/2025-12-01/cam1-20251201T200012.000Z.mp4",
                        "cam1/2025-12-01/cam1-20251201T200018.000Z.mp4");
    }

    @Test
    void aCodecChangeStartsANewFileWithTheNewConfiguration() {
        Harness h = Harness.av();
        StreamRecorder recorder = new StreamRecorder("cam1", StreamLayout.VIDEO_AND_AUDIO, 60_000);
        MemoryDisk disk = record(h, recorder, () -> {
            h.feed(stream.generate(0, 4_000));
            h.configure(TestMedia.aac44k());
            SyntheticStream s44 = new SyntheticStream();
            s44.audioRateHz = 44_100;
            h.feed(s44.generate(4_000, 4_000));
        });

        assertThat(disk.files).hasSize(2);
        List<String> paths = new ArrayList<>(disk.files.keySet());
        Mp4Reader first = Mp4Reader.read(disk.bytes(paths.get(0)));
        Mp4Reader second = Mp4Reader.read(disk.bytes(paths.get(1)));
        assertThat(first.tracks.get(2).timescale()).isEqualTo(48_000);
        assertThat(second.tracks.get(2).timescale()).isEqualTo(44_100);
        // Every audio chunk landed in the file whose init describes it: durations are 1024 samples.
        assertThat(first.samples(2)).allSatisfy(s -> assertThat(s.duration()).isEqualTo(1024));
        assertThat(second.samples(2))
                .isNotEmpty()
                .allSatisfy(s -> assertThat(s.duration()).isEqualTo(1024));
        assertThat(second.samples(1).get(0).sync()).isTrue();
    }

    @Test
    void audioOfTheSegmentBeforeARotationStaysInTheFileBefore() {
        Harness h = Harness.av();
        StreamRecorder recorder = new StreamRecorder("s", StreamLayout.VIDEO_AND_AUDIO, 4_000);
        MemoryDisk disk = record(h, recorder, () -> h.feed(stream.generate(0, 10_000)));

        List<String> paths = new ArrayList<>(disk.files.keySet());
        for (int i = 0; i + 1 < paths.size(); i++) {
            Mp4Reader a = Mp4Reader.read(disk.bytes(paths.get(i)));
            Mp4Reader b = Mp4Reader.read(disk.bytes(paths.get(i + 1)));
            Mp4Reader.Sample lastAudio = a.samples(2).get(a.samples(2).size() - 1);
            long audioEnd90 = (lastAudio.dts() + lastAudio.duration()) * 90_000 / 48_000;
            long nextVideoStart = b.samples(1).get(0).dts();
            assertThat(Math.abs(audioEnd90 - nextVideoStart)).isLessThanOrEqualTo(960); // half an AAC frame
            // And both tracks continue in the next file where they stopped.
            Mp4Reader.Sample nextAudio = b.samples(2).get(0);
            assertThat(nextAudio.dts()).isEqualTo(lastAudio.dts() + lastAudio.duration());
        }
    }

    @Test
    void audioOnlyAndVideoOnlyStreamsRecordOneTrack() {
        Harness h = new Harness(PackagerConfig.defaults("a"), StreamLayout.AUDIO_ONLY);
        h.configure(TestMedia.aac48k());
        stream.video = false;
        StreamRecorder recorder = new StreamRecorder("radio", StreamLayout.AUDIO_ONLY, 4_000);
        MemoryDisk disk = record(h, recorder, () -> h.feed(stream.generate(0, 9_000)));
        // 1.92 s audio segments: the first boundary at or after 4 s is at 5.76 s.
        assertThat(disk.files).hasSize(2);
        for (String path : disk.files.keySet()) {
            assertThat(Mp4Reader.read(disk.bytes(path)).tracks).containsOnlyKeys(2);
        }
    }

    @Test
    void invalidStreamNamesAndRotationsAreRefused() {
        for (String bad : new String[] {"../x", "a/b", ".hidden", "", "x".repeat(65)}) {
            org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                    .isThrownBy(() -> new StreamRecorder(bad, StreamLayout.VIDEO_ONLY, 60_000))
                    .withMessageContaining("stream name");
        }
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new StreamRecorder("ok", StreamLayout.VIDEO_ONLY, 10))
                .withMessageContaining("rotateAfterMs=10");
    }
}
