package io.tern.media.ts;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ffmpeg's own MPEG-TS, demuxed, against ffprobe's packet list: counts, timestamps, keyframes. */
class TsDemuxerFfmpegTest {
    @TempDir
    static Path dir;

    static byte[] ts;
    static List<FfmpegTs.Packet> probed;

    @BeforeAll
    static void fixture() throws Exception {
        Path file = FfmpegTs.generate(dir, 4);
        ts = FfmpegTs.read(file);
        probed = FfmpegTs.probe(file);
    }

    static List<AccessUnit> demux(byte[] input, int chunk) {
        TsDemuxer d = new TsDemuxer();
        List<AccessUnit> units = new ArrayList<>();
        for (int i = 0; i < input.length; i += chunk) {
            d.feed(input, i, Math.min(chunk, input.length - i));
            for (AccessUnit u; (u = d.poll()) != null; ) {
                units.add(u);
            }
        }
        d.flush();
        for (AccessUnit u; (u = d.poll()) != null; ) {
            units.add(u);
        }
        assertThat(d.stats().errors()).as(d.stats().toString()).isZero();
        assertThat(d.videoConfig().width()).isEqualTo(1280);
        assertThat(d.videoConfig().height()).isEqualTo(720);
        assertThat(d.audioConfig().sampleRateHz()).isEqualTo(48000);
        assertThat(d.audioConfig().codecs()).isEqualTo("mp4a.40.2");
        return units;
    }

    @Test
    void everyFrameMatchesFfprobe() {
        List<AccessUnit> units = demux(ts, 1316);
        List<AccessUnit> video =
                units.stream().filter(u -> u.track() == TrackType.VIDEO).toList();
        List<AccessUnit> audio =
                units.stream().filter(u -> u.track() == TrackType.AUDIO).toList();
        List<FfmpegTs.Packet> pv = probed.stream().filter(p -> p.stream() == 0).toList();
        List<FfmpegTs.Packet> pa = probed.stream().filter(p -> p.stream() == 1).toList();
        assertThat(video).hasSize(pv.size()).hasSize(120);
        assertThat(audio).hasSameSizeAs(pa);
        for (int i = 0; i < pv.size(); i++) {
            assertThat(video.get(i).pts())
                    .as("video pts %d", i)
                    .isEqualTo(pv.get(i).pts());
            assertThat(video.get(i).dts())
                    .as("video dts %d", i)
                    .isEqualTo(pv.get(i).dts());
            assertThat(video.get(i).keyframe())
                    .as("video key %d", i)
                    .isEqualTo(pv.get(i).key());
        }
        for (int i = 0; i < pa.size(); i++) {
            assertThat(audio.get(i).pts())
                    .as("audio pts %d", i)
                    .isEqualTo(pa.get(i).pts());
        }
        assertThat(video.stream().filter(AccessUnit::keyframe).count()).isEqualTo(4);
        assertThat(video.stream().anyMatch(u -> u.pts() != u.dts()))
                .as("B-frames")
                .isTrue();
        for (int i = 1; i < video.size(); i++) {
            assertThat(video.get(i).dts()).isGreaterThan(video.get(i - 1).dts());
        }
    }

    @Test
    void framesAreLengthPrefixedWithoutDelimitersOrParameterSets() {
        for (AccessUnit u : demux(ts, 188 * 3 + 5)) {
            if (u.track() != TrackType.VIDEO) {
                continue;
            }
            byte[] d = u.data();
            int i = 0;
            while (i < d.length) {
                int len = ((d[i] & 0xFF) << 24)
                        | ((d[i + 1] & 0xFF) << 16)
                        | ((d[i + 2] & 0xFF) << 8)
                        | (d[i + 3] & 0xFF);
                int type = d[i + 4] & 0x1F;
                assertThat(type).isNotIn(7, 8, 9);
                i += 4 + len;
            }
            assertThat(i).isEqualTo(d.length);
        }
    }

    @Test
    void aLostPacketIsOneCountedDiscontinuityAndTheBrokenFrameIsDropped() {
        byte[] damaged = new byte[ts.length - 188];
        int cut = 188 * 2000;
        System.arraycopy(ts, 0, damaged, 0, cut);
        System.arraycopy(ts, cut + 188, damaged, cut, ts.length - cut - 188);
        TsDemuxer d = new TsDemuxer();
        d.feed(damaged, 0, damaged.length);
        d.flush();
        int units = 0;
        while (d.poll() != null) {
            units++;
        }
        assertThat(d.stats().continuityErrors()).isEqualTo(1);
        assertThat(d.stats().droppedUnits()).isEqualTo(1);
        assertThat(units).isEqualTo(probed.size() - 1);
    }
}
