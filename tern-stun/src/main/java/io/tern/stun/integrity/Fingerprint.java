package io.tern.stun.integrity;

import java.util.zip.CRC32;
import org.agrona.DirectBuffer;

/** FINGERPRINT (RFC 8489 §14.7): CRC-32 of the message so far, XORed with 0x5354554E. */
public final class Fingerprint {
    public static final int XOR_VALUE = 0x5354554E;

    private final CRC32 crc = new CRC32();
    private final byte[] scratch;

    public Fingerprint(int maxMessageBytes) {
        this.scratch = new byte[Math.max(maxMessageBytes, 64)];
    }

    /**
     * CRC over {@code length} bytes at {@code offset}; the header's length field must already count FINGERPRINT.
     * Messages longer than {@code maxMessageBytes} are read in scratch-sized pieces.
     */
    public int compute(DirectBuffer buffer, int offset, int length) {
        crc.reset();
        for (int done = 0; done < length; ) {
            int chunk = Math.min(scratch.length, length - done);
            buffer.getBytes(offset + done, scratch, 0, chunk);
            crc.update(scratch, 0, chunk);
            done += chunk;
        }
        return (int) crc.getValue() ^ XOR_VALUE;
    }
}
