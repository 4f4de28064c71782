package io.tern.stun;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.agrona.concurrent.UnsafeBuffer;

/** Small helpers shared by the codec tests: hex vectors and buffers. */
public final class TestBytes {
    /** Largest STUN message: a 16-bit body length plus the header. */
    public static final int MAX_MESSAGE_BYTES = 0xFFFF + 20;

    private TestBytes() {}

    /** Parses hex, ignoring whitespace, so vectors can be laid out in 32-bit words as in the RFCs. */
    public static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("\\s+", ""));
    }

    public static String toHex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static UnsafeBuffer bufferOf(byte[] bytes) {
        return new UnsafeBuffer(bytes.clone());
    }

    public static byte[] bytesOf(UnsafeBuffer buffer, int offset, int length) {
        byte[] out = new byte[length];
        buffer.getBytes(offset, out);
        return out;
    }
}
