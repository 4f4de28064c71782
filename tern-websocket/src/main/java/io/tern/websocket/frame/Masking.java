package io.tern.websocket.frame;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.agrona.MutableDirectBuffer;

/** RFC 6455 §5.3 masking, applied a long at a time. The same operation masks and unmasks. */
public final class Masking {
    private static final VarHandle LONG_VIEW = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private Masking() {}

    /**
     * XORs {@code length} bytes in place with the big-endian {@code maskKey}, starting at byte
     * {@code phase} (0..3) of the key, because a frame's payload may arrive split across reads.
     *
     * @return the phase to continue with for the next bytes of the same frame
     */
    public static int mask(byte[] buf, int offset, int length, int maskKey, int phase) {
        final int rotatedKey = Integer.rotateLeft(maskKey, phase << 3);
        final long longMask = ((long) rotatedKey << 32) | (rotatedKey & 0xFFFF_FFFFL);
        int i = offset;
        final int end = offset + length;
        for (; i + 8 <= end; i += 8) {
            LONG_VIEW.set(buf, i, (long) LONG_VIEW.get(buf, i) ^ longMask);
        }
        for (int k = 0; i < end; i++, k++) {
            buf[i] ^= (byte) (rotatedKey >>> (24 - ((k & 3) << 3)));
        }
        return (phase + length) & 3;
    }

    /** {@link #mask(byte[], int, int, int, int)} over a buffer the transport owns (a frame being sent). */
    public static int mask(MutableDirectBuffer buf, int index, int length, int maskKey, int phase) {
        final int rotatedKey = Integer.rotateLeft(maskKey, phase << 3);
        final long longMask = ((long) rotatedKey << 32) | (rotatedKey & 0xFFFF_FFFFL);
        int i = index;
        final int end = index + length;
        for (; i + 8 <= end; i += 8) {
            buf.putLong(i, buf.getLong(i, ByteOrder.BIG_ENDIAN) ^ longMask, ByteOrder.BIG_ENDIAN);
        }
        for (int k = 0; i < end; i++, k++) {
            buf.putByte(i, (byte) (buf.getByte(i) ^ (rotatedKey >>> (24 - ((k & 3) << 3)))));
        }
        return (phase + length) & 3;
    }
}
