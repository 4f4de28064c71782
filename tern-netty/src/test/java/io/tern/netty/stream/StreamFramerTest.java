package io.tern.netty.stream;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class StreamFramerTest {
    private static int frame(byte[] bytes, int available) {
        return StreamFramer.frameLength(new UnsafeBuffer(bytes), 0, available);
    }

    @Test
    void stunMessageIsHeaderPlusLength() {
        byte[] stun = StreamBytes.stun(24, 1);
        assertThat(frame(stun, stun.length)).isEqualTo(44);
        assertThat(frame(stun, 8)).isEqualTo(44);
    }

    @Test
    void stunNeedsTheMagicCookieToDecide() {
        byte[] stun = StreamBytes.stun(0, 1);
        for (int available = 0; available < StreamFramer.DECISION_BYTES; available++) {
            assertThat(frame(stun, available)).as("available %d", available).isEqualTo(StreamFramer.NEED_MORE);
        }
        assertThat(frame(stun, StreamFramer.DECISION_BYTES)).isEqualTo(20);
    }

    @Test
    void channelDataIsPaddedToFourBytes() {
        assertThat(frame(StreamBytes.channelData(5, 0), 4)).isEqualTo(12);
        assertThat(frame(StreamBytes.channelData(8, 0), 4)).isEqualTo(12);
        assertThat(frame(StreamBytes.channelData(0, 0), 4)).isEqualTo(4);
        assertThat(frame(StreamBytes.channelData(1, 0), 3)).isEqualTo(StreamFramer.NEED_MORE);
    }

    @Test
    void largestMessagesAreBounded() {
        byte[] stun = {0x00, 0x01, (byte) 0xFF, (byte) 0xFC, 0x21, 0x12, (byte) 0xA4, 0x42};
        assertThat(frame(stun, 8)).isEqualTo(20 + 0xFFFC).isLessThanOrEqualTo(StreamFramer.MAX_FRAME_BYTES);
        byte[] channel = {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        assertThat(frame(channel, 4)).isEqualTo(65540).isLessThanOrEqualTo(StreamFramer.MAX_FRAME_BYTES);
    }

    @Test
    void rejectsWhatIsNeitherStunNorChannelData() {
        assertThat(frame(new byte[] {(byte) 0x80}, 1)).isEqualTo(StreamFramer.INVALID);
        assertThat(frame(new byte[] {(byte) 0xC0}, 1)).isEqualTo(StreamFramer.INVALID);
        // STUN length not a multiple of 4
        assertThat(frame(new byte[] {0, 1, 0, 5}, 4)).isEqualTo(StreamFramer.INVALID);
        // no magic cookie (RFC 3489 or a TLS ClientHello on the TCP port)
        assertThat(frame(new byte[] {0, 1, 0, 4, 1, 2, 3, 4}, 8)).isEqualTo(StreamFramer.INVALID);
        assertThat(frame(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01}, 8))
                .isEqualTo(StreamFramer.INVALID);
    }

    @Test
    void bytesToDecideNeverReachesIntoTheNextMessage() {
        assertThat(StreamFramer.bytesToDecide(0)).isEqualTo(4);
        assertThat(StreamFramer.bytesToDecide(3)).isEqualTo(4);
        assertThat(StreamFramer.bytesToDecide(4)).isEqualTo(8);
        assertThat(StreamFramer.bytesToDecide(7)).isEqualTo(8);
    }
}
