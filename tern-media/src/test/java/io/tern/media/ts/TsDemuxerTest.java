package io.tern.media.ts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TsDemuxerTest {
    @Test
    void ptsWrapsOnToAContinuousTimeline() {
        TimestampUnwrapper u = new TimestampUnwrapper();
        long max = (1L << 33) - 1;
        assertThat(u.unwrap(max - 3000)).isEqualTo(max - 3000);
        assertThat(u.unwrap(1500)).isEqualTo(max + 1 + 1500);
        assertThat(u.unwrap(max - 1000))
                .as("a late packet from before the wrap")
                .isEqualTo(max - 1000);
        assertThat(u.unwrap(4500)).isEqualTo(max + 1 + 4500);
    }

    @Test
    void garbageBetweenPacketsIsOneSyncLoss() {
        TsDemuxer d = new TsDemuxer();
        byte[] junk = {1, 2, 3, 4, 5};
        d.feed(junk, 0, junk.length);
        byte[] nullPacket = new byte[188];
        nullPacket[0] = 0x47;
        nullPacket[1] = 0x1F;
        nullPacket[2] = (byte) 0xFF;
        nullPacket[3] = 0x10;
        d.feed(nullPacket, 0, 188);
        assertThat(d.stats().syncLosses()).isEqualTo(1);
        assertThat(d.stats().packets()).isEqualTo(1);
    }

    @Test
    void sectionCrcIsTheMpeg2Crc() {
        // A PAT as ffmpeg writes it: program 1 on PMT PID 0x1000, CRC 2AB104B2.
        byte[] pat = {
            0x00,
            (byte) 0xB0,
            0x0D,
            0x00,
            0x01,
            (byte) 0xC1,
            0x00,
            0x00,
            0x00,
            0x01,
            (byte) 0xF0,
            0x00,
            0x2A,
            (byte) 0xB1,
            0x04,
            (byte) 0xB2
        };
        assertThat(SectionBuffer.crc(pat, pat.length)).isZero();
    }
}
