package io.tern.stun.channel;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class ChannelDataFlyweightTest {
    private final ChannelDataFlyweight flyweight = new ChannelDataFlyweight();

    @Test
    void writesAndReadsHeaderAtAnOffset() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        flyweight.wrap(buffer, 8).channelNumber(0x4001).dataLength(5);
        assertThat(buffer.getByte(8)).isEqualTo((byte) 0x40);
        assertThat(buffer.getByte(9)).isEqualTo((byte) 0x01);
        assertThat(buffer.getByte(10)).isZero();
        assertThat(buffer.getByte(11)).isEqualTo((byte) 5);
        assertThat(flyweight.wrap(buffer, 8).channelNumber()).isEqualTo(0x4001);
        assertThat(flyweight.dataLength()).isEqualTo(5);
        assertThat(flyweight.dataOffset()).isEqualTo(12);
        assertThat(ChannelDataFlyweight.isChannelData(buffer, 8, 9)).isTrue();
    }

    @Test
    void fieldsAreUnsigned() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[4]);
        flyweight.wrap(buffer, 0).channelNumber(0xFFFF).dataLength(0xFFFF);
        assertThat(flyweight.channelNumber()).isEqualTo(0xFFFF);
        assertThat(flyweight.dataLength()).isEqualTo(0xFFFF);
    }

    @Test
    void firstTwoBitsTellChannelDataFromStun() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        for (int first = 0; first < 256; first++) {
            buffer.putByte(0, (byte) first);
            assertThat(ChannelDataFlyweight.isChannelData(buffer, 0, 4))
                    .as("0x%02x", first)
                    .isEqualTo((first >>> 6) == 1);
        }
        buffer.putByte(0, (byte) 0x40);
        assertThat(ChannelDataFlyweight.isChannelData(buffer, 0, 3)).isFalse();
        assertThat(ChannelDataFlyweight.isChannelData(buffer, 0, 0)).isFalse();
    }

    @Test
    void paddedLengthRoundsUpToFour() {
        assertThat(ChannelDataFlyweight.paddedLength(0)).isEqualTo(4);
        assertThat(ChannelDataFlyweight.paddedLength(1)).isEqualTo(8);
        assertThat(ChannelDataFlyweight.paddedLength(4)).isEqualTo(8);
        assertThat(ChannelDataFlyweight.paddedLength(5)).isEqualTo(12);
        assertThat(ChannelDataFlyweight.paddedLength(0xFFFF)).isEqualTo(0x10004);
    }

    @Property(tries = 3000)
    void anyBytesAreClassifiedAndReadInBounds(
            @ForAll @Size(max = 8) byte[] bytes, @ForAll @IntRange(max = 7) int offset) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[offset + bytes.length]);
        buffer.putBytes(offset, bytes);
        boolean channelData = ChannelDataFlyweight.isChannelData(buffer, offset, bytes.length);
        assertThat(channelData)
                .isEqualTo(bytes.length >= ChannelDataFlyweight.HEADER_LENGTH && (bytes[0] & 0xC0) == 0x40);
        if (channelData) {
            flyweight.wrap(buffer, offset);
            assertThat(flyweight.channelNumber()).isBetween(0x4000, 0x7FFF);
            assertThat(flyweight.dataLength()).isEqualTo(((bytes[2] & 0xFF) << 8) | (bytes[3] & 0xFF));
            assertThat(flyweight.dataOffset()).isEqualTo(offset + ChannelDataFlyweight.HEADER_LENGTH);
        }
    }
}
