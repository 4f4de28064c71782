package io.tern.rtmp.chunk;

import io.tern.rtmp.bytes.ByteWriter;
import java.util.Arrays;

/** Writes chunks with exactly the header a test names, to check the reader against §5.3 by hand. */
final class RawChunks {
    private final ByteWriter out = new ByteWriter(256);

    RawChunks basic(int format, int csid) {
        ChunkWriter.basicHeader(out, format, csid);
        return this;
    }

    RawChunks type0(int csid, long timestamp, int length, int typeId, int streamId) {
        basic(0, csid);
        out.u24((int) Math.min(timestamp, 0xFFFFFF)).u24(length).u8(typeId).u32le(streamId);
        return extended(timestamp);
    }

    RawChunks type1(int csid, long delta, int length, int typeId) {
        basic(1, csid);
        out.u24((int) Math.min(delta, 0xFFFFFF)).u24(length).u8(typeId);
        return extended(delta);
    }

    RawChunks type2(int csid, long delta) {
        basic(2, csid);
        out.u24((int) Math.min(delta, 0xFFFFFF));
        return extended(delta);
    }

    RawChunks type3(int csid) {
        return basic(3, csid);
    }

    RawChunks u32(long value) {
        out.u32(value);
        return this;
    }

    RawChunks payload(byte[] bytes, int offset, int length) {
        out.bytes(bytes, offset, length);
        return this;
    }

    RawChunks payload(int length, int fill) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) fill);
        return payload(bytes, 0, length);
    }

    private RawChunks extended(long value) {
        if (value >= 0xFFFFFF) {
            out.u32(value);
        }
        return this;
    }

    byte[] bytes() {
        return Arrays.copyOf(out.array(), out.length());
    }
}
