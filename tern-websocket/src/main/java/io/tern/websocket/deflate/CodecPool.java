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
    private final ConcurrentLinkedQueue<Inflater> inflaters = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pooledDeflaters = new AtomicInteger();
    private final AtomicInteger pooledInflaters = new AtomicInteger();
    private final AtomicInteger deflatersInUse = new AtomicInteger();
    private final AtomicInteger inflatersInUse = new AtomicInteger();

    public CodecPool(int compressionLevel, int maxPooled) {
        this.compressionLevel = compressionLevel;
        this.maxPooled = maxPooled;
    }

    public Deflater acquireDeflater() {
        deflatersInUse.incrementAndGet();
        Deflater d = deflaters.poll();
        if (d == null) {
            return new Deflater(compressionLevel, true);
        }
        pooledDeflaters.decrementAndGet();
        return d;
    }

    public void releaseDeflater(Deflater d) {
        deflatersInUse.decrementAndGet();
        d.reset();
        d.setStrategy(Deflater.DEFAULT_STRATEGY);
        if (pooledDeflaters.incrementAndGet() <= maxPooled) {
            deflaters.offer(d);
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
