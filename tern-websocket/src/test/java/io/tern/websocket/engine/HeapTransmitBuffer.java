package io.tern.websocket.engine;

import java.util.Arrays;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Test transmit buffer: a growable array that keeps everything an engine transmitted until taken. */
public final class HeapTransmitBuffer implements TransmitBuffer {
    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(256);
    private final UnsafeBuffer claimed = new UnsafeBuffer(0, 0);
    private int length;

    @Override
    public MutableDirectBuffer claim(int claimBytes) {
        bytes.checkLimit(length + claimBytes);
        claimed.wrap(bytes.byteArray(), length, claimBytes);
        length += claimBytes;
        return claimed;
    }

    public int size() {
        return length;
    }

    /** Everything transmitted since the last take. */
    public byte[] peek() {
        return Arrays.copyOf(bytes.byteArray(), length);
    }

    /** Returns and forgets everything transmitted so far. */
    public byte[] take() {
        byte[] taken = peek();
        length = 0;
        return taken;
    }
}
