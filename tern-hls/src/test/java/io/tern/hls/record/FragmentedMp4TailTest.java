package io.tern.hls.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.mp4.Mp4Reader;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.SyntheticStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tail check against crash-like truncations at every byte offset of a real recording: the
 * answer is always the end of the last whole fragment before the cut, and the file truncated
 * there parses completely.
 */
class FragmentedMp4TailTest {
    /** A small recording: init plus a second of fragments, and where each box ends. */
    private static byte[] recording() {
        Harness h = Harness.av();
        SyntheticStream s = new SyntheticStream();
        s.keyframeBytes = 300;
        s.frameBytes = 40;
        s.audioBytes = 12;
        StreamRecorder recorder = new StreamRecorder("t", StreamLayout.VIDEO_AND_AUDIO, 60_000);
        MemoryDisk disk = new MemoryDisk();
        h.feed(s.generate(0, 1_000));
        h.end();
        h.events.forEach(recorder::onEvent);
        disk.apply(recorder);
        return disk.bytes(disk.files.keySet().iterator().next());
    }

    @Test
    void everyTruncationIsCutBackToTheLastWholeFragment() throws IOException {
        byte[] file = recording();
        Mp4Reader whole = Mp4Reader.read(file);
        List<Integer> boundaries = new ArrayList<>();
        int moovEnd = file.length
                - whole.fragments.stream().mapToInt(Mp4Reader.Fragment::length).sum();
        boundaries.add(moovEnd);
        for (Mp4Reader.Fragment f : whole.fragments) {
            boundaries.add(f.offset() + f.length());
        }
        assertThat(whole.fragments).hasSizeGreaterThan(40);
        assertThat(file.length).isLessThan(40_000);

        for (int cut = 0; cut <= file.length; cut++) {
            byte[] truncated = Arrays.copyOf(file, cut);
            FragmentedMp4Tail.Tail tail = FragmentedMp4Tail.scan(ByteSource.of(truncated));
            long complete = tail.completeLength();
            int expected = 0;
            for (int b : boundaries) {
                if (b <= cut) {
                    expected = b;
                }
            }
            assertThat(complete).as("cut at %d of %d", cut, file.length).isEqualTo(expected);
            assertThat(tail.fragments())
                    .as("whole fragments before a cut at %d", cut)
                    .isEqualTo(Math.max(0, boundaries.indexOf(expected)));
            if (complete > 0) {
                Mp4Reader repaired = Mp4Reader.read(Arrays.copyOf(file, (int) complete));
                assertThat(repaired.fragments).hasSize(boundaries.indexOf(expected));
            }
        }
    }

    @Test
    void garbageAfterTheLastFragmentIsCutOff() throws IOException {
        byte[] file = recording();
        byte[] withGarbage = Arrays.copyOf(file, file.length + 100);
        Arrays.fill(withGarbage, file.length, withGarbage.length, (byte) 0x41);
        assertThat(FragmentedMp4Tail.completeLength(ByteSource.of(withGarbage))).isEqualTo(file.length);
        // A zero-sized box (open-ended) is never complete.
        byte[] zero = Arrays.copyOf(file, file.length + 8);
        System.arraycopy(new byte[] {0, 0, 0, 0, 'm', 'o', 'o', 'f'}, 0, zero, file.length, 8);
        assertThat(FragmentedMp4Tail.completeLength(ByteSource.of(zero))).isEqualTo(file.length);
        assertThat(FragmentedMp4Tail.completeLength(ByteSource.of(new byte[0]))).isZero();
    }
}
