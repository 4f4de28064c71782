package io.tern.websocket.deflate;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Shared, bounded pool of raw-deflate {@link Deflater}s and {@link Inflater}s. Each holds native zlib
 * state (a deflater roughly 256 KiB), so connections without context takeover borrow one per message
 * instead of owning one for their whole life. Thread-safe: event loops share one pool.
 */
public final class CodecPool {
    private final int compressionLevel;
    private final int maxPooled;
    private final ConcurrentLinkedQueue<Deflater> deflaters = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Deflater> huffmanDeflaters = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Inflater> inflaters = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pooledDeflaters = new AtomicInteger();
    private final AtomicInteger pooledInflaters = new AtomicInteger();
    private final AtomicInteger deflatersInUse = new AtomicInteger();
    private final AtomicInteger inflatersInUse = new AtomicInteger();

    public CodecPool(int compressionLevel, int maxPooled) {
        this.compressionLevel = compressionLevel;
        this.maxPooled = maxPooled;
    }

    /**
     * @param huffmanOnly a deflater that emits no back-references, for peers that demand a window
     *        below 15 bits. Kept in its own queue so a strategy is never changed on a pooled deflater:
     *        the JDK applies such a change lazily, in a deflate call that then does nothing else.
     */
    public Deflater acquireDeflater(boolean huffmanOnly) {
        deflatersInUse.incrementAndGet();
        Deflater d = (huffmanOnly ? huffmanDeflaters : deflaters).poll();
        if (d != null) {
            pooledDeflaters.decrementAndGet();
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
        if (pooledDeflaters.incrementAndGet() <= maxPooled) {
            (huffmanOnly ? huffmanDeflaters : deflaters).offer(d);
        } else {
            pooledDeflaters.decrementAndGet();
            d.end();
        }
    }

    public Inflater acquireInflater() {
        inflatersInUse.incrementAndGet();
        Inflater i = inflaters.poll();
        if (i == null) {
            return new Inflater(true);
        }
        pooledInflaters.decrementAndGet();
        return i;
    }

    public void releaseInflater(Inflater i) {
        inflatersInUse.decrementAndGet();
        i.reset();
        if (pooledInflaters.incrementAndGet() <= maxPooled) {
            inflaters.offer(i);
        } else {
            pooledInflaters.decrementAndGet();
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
