package io.tern.websocket.frame;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The framing state machine: headers split anywhere, the checks that need only the header, payload counting. */
class FrameReaderTest {
    private static final int MASK_KEY = 0x11223344;

    private static byte[] frame(boolean fin, int rsv, int opcode, int payloadBytes, boolean masked) {
        byte[] bytes = new byte[FrameHeader.MAX_HEADER_BYTES + payloadBytes];
        int header = FrameHeader.encode(bytes, 0, fin, rsv, opcode, payloadBytes, masked, MASK_KEY);
        byte[] exact = new byte[header + payloadBytes];
        System.arraycopy(bytes, 0, exact, 0, exact.length);
        return exact;
    }

    @Test
    void readsAHeaderSplitAtEveryByte() {
        for (int payloadBytes : new int[] {0, 125, 126, 65535, 65536}) {
            byte[] wire = frame(true, 0, Opcode.BINARY, payloadBytes, true);
            int headerBytes = wire.length - payloadBytes;
            for (int split = 0; split <= headerBytes; split++) {
                FrameReader reader = new FrameReader();
                UnsafeBuffer buffer = new UnsafeBuffer(wire);
                int first = reader.readHeader(buffer, 0, split);
                assertThat(first).isEqualTo(split);
                assertThat(reader.headerReady()).isEqualTo(split == headerBytes);
                int second = reader.readHeader(buffer, split, wire.length);
                assertThat(first + second)
                        .as("split at %d of %d", split, headerBytes)
                        .isEqualTo(headerBytes);
                assertThat(reader.headerReady()).isTrue();
                assertThat(reader.header().payloadBytes()).isEqualTo(payloadBytes);
                assertThat(reader.header().maskKey()).isEqualTo(MASK_KEY);
                assertThat(reader.checkHeader(true, false)).isNull();
            }
        }
    }

    @Test
    void readsNoPayloadAsHeaderAndCountsThePayloadOff() {
        byte[] wire = frame(false, 0, Opcode.TEXT, 10, false);
        FrameReader reader = new FrameReader();
        UnsafeBuffer buffer = new UnsafeBuffer(wire);
        assertThat(reader.readHeader(buffer, 0, wire.length)).isEqualTo(2);
        reader.startPayload();
        assertThat(reader.inPayload()).isTrue();
        assertThat(reader.opcode()).isEqualTo(Opcode.TEXT);
        assertThat(reader.fin()).isFalse();
        assertThat(reader.readHeader(buffer, 2, wire.length))
                .as("no header bytes while in payload")
                .isZero();
        assertThat(reader.payloadBytesIn(4)).isEqualTo(4);
        assertThat(reader.payloadRead(4)).isFalse();
        assertThat(reader.payloadBytesIn(100)).isEqualTo(6);
        assertThat(reader.payloadRead(6)).isTrue();
        assertThat(reader.inPayload()).isFalse();
        assertThat(reader.headerReady()).isFalse();
    }

    @Test
    void anEmptyFrameEndsAtOnce() {
        byte[] wire = frame(true, 0, Opcode.PING, 0, false);
        FrameReader reader = new FrameReader();
        reader.readHeader(new UnsafeBuffer(wire), 0, wire.length);
        reader.startPayload();
        assertThat(reader.payloadBytesIn(10)).isZero();
        assertThat(reader.payloadRead(0)).isTrue();
    }

    @Test
    void unmasksAcrossRuns() {
        byte[] payload = {1, 2, 3, 4, 5, 6, 7};
        byte[] masked = payload.clone();
        Masking.mask(masked, 0, masked.length, MASK_KEY, 0);
        byte[] wire = frame(true, 0, Opcode.BINARY, payload.length, true);
        FrameReader reader = new FrameReader();
        reader.readHeader(new UnsafeBuffer(wire), 0, wire.length);
        reader.startPayload();
        reader.unmask(masked, 0, 3);
        reader.unmask(masked, 3, 4);
        assertThat(masked).isEqualTo(payload);
    }

    @Test
    void reportsEachHeaderFaultInOrder() {
        assertThat(check(frame(true, FrameHeader.RSV1, Opcode.TEXT, 1, true), true, false))
                .isEqualTo("reserved bits set");
        assertThat(check(frame(true, FrameHeader.RSV1, Opcode.TEXT, 1, true), true, true))
                .isNull();
        assertThat(check(frame(true, 0, 3, 1, true), true, false)).isEqualTo("unknown opcode");
        assertThat(check(frame(true, 0, Opcode.TEXT, 1, false), true, false)).isEqualTo("client frame not masked");
        assertThat(check(frame(true, 0, Opcode.TEXT, 1, true), false, false)).isEqualTo("server frame masked");
        byte[] topBit = frame(true, 0, Opcode.BINARY, 65536, false);
        topBit[2] = (byte) 0x80;
        assertThat(check(topBit, false, false)).isEqualTo("payload length has its top bit set");
        byte[] notMinimal = {(byte) 0x82, 126, 0, 5};
        assertThat(check(notMinimal, false, false)).isEqualTo("payload length not in its minimal form");
        assertThat(check(frame(false, 0, Opcode.PING, 0, false), false, false))
                .isEqualTo("fragmented or oversized control frame");
        assertThat(check(frame(true, 0, Opcode.PING, 126, false), false, false))
                .isEqualTo("fragmented or oversized control frame");
    }

    private static String check(byte[] wire, boolean expectMasked, boolean rsv1Allowed) {
        FrameReader reader = new FrameReader();
        reader.readHeader(new UnsafeBuffer(wire), 0, wire.length);
        assertThat(reader.headerReady()).isTrue();
        return reader.checkHeader(expectMasked, rsv1Allowed);
    }
}
