package io.tern.media.ts;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.media.AccessUnit;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.BeforeContainer;

/** Random and mutated TS never throws: every problem is a counted error and memory stays bounded. */
class TsDemuxerFuzzTest {
    static byte[] sample;

    @BeforeContainer
    static void sample() throws Exception {
        Path dir = Files.createTempDirectory("tsfuzz");
        try {
            sample = Files.readAllBytes(FfmpegTs.generate(dir, 1));
        } catch (Throwable missingFfmpeg) {
            sample = null;
        }
    }

    @Property(tries = 300)
    void randomBytes(@ForAll byte[] input) {
        drain(input);
    }

    @Property(tries = 300)
    void packetShapedNoise(@ForAll("packets") byte[] input) {
        drain(input);
    }

    @Property(tries = 200)
    void mutatedRealStream(@ForAll("mutations") int[] positions) {
        if (sample == null) {
            return;
        }
        byte[] m = sample.clone();
        for (int i = 0; i + 1 < positions.length; i += 2) {
            m[Math.floorMod(positions[i], m.length)] = (byte) positions[i + 1];
        }
        drain(m);
    }

    @Provide
    Arbitrary<byte[]> packets() {
        return Arbitraries.integers()
                .between(1, 40)
                .flatMap(n -> Arbitraries.bytes()
                        .array(byte[].class)
                        .ofSize(188 * n)
                        .map(b -> {
                            for (int i = 0; i < b.length; i += 188) {
                                b[i] = 0x47;
                                if ((i / 188) % 3 == 0) {
                                    b[i + 1] = (byte) (b[i + 1] & 0x40);
                                    b[i + 2] = (byte) (i % 2 == 0 ? 0 : 0x10);
                                }
                            }
                            return b;
                        }));
    }

    @Provide
    Arbitrary<int[]> mutations() {
        return Arbitraries.integers().array(int[].class).ofMinSize(2).ofMaxSize(64);
    }

    private static void drain(byte[] input) {
        TsDemuxer d = new TsDemuxer();
        d.feed(input, 0, input.length);
        d.flush();
        int n = 0;
        for (AccessUnit u; (u = d.poll()) != null; ) {
            assertThat(u.pts()).isGreaterThanOrEqualTo(u.dts());
            n++;
        }
        assertThat(n).isLessThanOrEqualTo(TsDemuxer.MAX_QUEUED_UNITS);
    }
}
