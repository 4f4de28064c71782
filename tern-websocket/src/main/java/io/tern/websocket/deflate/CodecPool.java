package io.tern.websocket.deflate;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Shared, bounded pool of raw-deflate {@link Deflater}s and {@link Inflater}s. Each holds native zlib
 * state (a deflater roughly 256 KiB), so connections without context takeover borrow one per message
 * instead of owning one for their whole life. Thread-safe: event loops share one pool. Borrowing
 * and returning allocate nothing (the pool is a fixed set of slots, not a queue of nodes).
 */
public final class CodecPool {
    private final int compressionLevel;
    private final Slots<Deflater> deflaters;
    private final Slots<Deflater> huffmanDeflaters;
    private final Slots<Inflater> inflaters;
    private final AtomicInteger deflatersInUse = new AtomicInteger();
    private final AtomicInteger inflatersInUse = new AtomicInteger();

    /** @param maxPooled idle codecs kept, of each kind (deflaters, Huffman-only deflaters, inflaters) */
    public CodecPool(int compressionLevel, int maxPooled) {
        this.compressionLevel = compressionLevel;
        this.deflaters = new Slots<>(maxPooled);
        this.huffmanDeflaters = new Slots<>(maxPooled);
        this.inflaters = new Slots<>(maxPooled);
    }

    /** A fixed number of slots, each empty or holding one idle codec. */
    private static final class Slots<T> {
        private final AtomicReferenceArray<T> slots;

        Slots(int size) {
            slots = new AtomicReferenceArray<>(size);
        }

        T take() {
            for (int i = 0; i < slots.length(); i++) {
                T held = slots.get(i);
                if (held != null && slots.compareAndSet(i, held, null)) {
                    return held;
                }
            }
            return null;
        }

        /** @return false when every slot is taken */
        boolean give(T codec) {
            for (int i = 0; i < slots.length(); i++) {
                if (slots.get(i) == null && slots.compareAndSet(i, null, codec)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * @param huffmanOnly a deflater that emits no back-references, for peers that demand a window
     *        below 15 bits. Kept in its own queue so a strategy is never changed on a pooled deflater:
     *        the JDK applies such a change lazily, in a deflate call that then does nothing else.
     */
    public Deflater acquireDeflater(boolean huffmanOnly) {
        deflatersInUse.incrementAndGet();
        Deflater d = (huffmanOnly ? huffmanDeflaters : deflaters).take();
        if (d != null) {
            return d;
        }
        d = new Deflater(compressionLevel, true);
        if (huffmanOnly) {
            d.setStrategy(Deflater.HUFFMAN_ONLY);
            // Apply the strategy now, on the empty stream, rather than inside the first message.
            d.deflate(new byte[16], 0, 16, Deflater.NO_FLUSH);
        }
        return d;
    }

    public void releaseDeflater(Deflater d, boolean huffmanOnly) {
        deflatersInUse.decrementAndGet();
        d.reset();
        if (!(huffmanOnly ? huffmanDeflaters : deflaters).give(d)) {
            d.end();
        }
    }

    public Inflater acquireInflater() {
        inflatersInUse.incrementAndGet();
        Inflater i = inflaters.take();
        return i != null ? i : new Inflater(true);
    }

    public void releaseInflater(Inflater i) {
        inflatersInUse.decrementAndGet();
        i.reset();
        if (!inflaters.give(i)) {
            i.end();
        }
    }

    /** Deflaters currently held by connections (not in the pool). */
    public int deflatersInUse() {
        return deflatersInUse.get();
    }

    public int inflatersInUse() {
        return inflatersInUse.get();
    }
}
