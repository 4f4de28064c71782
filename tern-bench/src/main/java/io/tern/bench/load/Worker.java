package io.tern.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.bench.client.ChannelData;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * One load worker: an event loop thread owning some client sessions and one echo peer socket,
 * keeping {@code window} packets in flight. A completed echo immediately frees its slot, which is
 * reissued on the next client in round-robin order, so every allocation carries traffic.
 * All methods except the {@code request*} ones run on {@link #loop}.
 */
final class Worker {
    static final long MAX_LATENCY_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long EXPIRY_TICK_MS = 50;

    final int id;
    final EventLoop loop;
    private final LoadConfig config;
    private final ByteBufAllocator alloc;
    final List<ClientSession> clients = new ArrayList<>();
    private final List<ClientSession> dirty = new ArrayList<>();
    private final Payload payload = new Payload();
    private final byte[] txScratch;
    private final byte[] rxScratch;
    private final int frameBytes;

    Channel peer;
    InetSocketAddress peerAddress;
    private SequenceTracker tracker;
    private Histogram histogram;
    private int roundRobin;
    private boolean running;
    private CompletableFuture<Void> drained;
    private ScheduledFuture<?> expiryTask;
    private final long lossTimeoutNs;
    /** Completed round trips of the current phase, readable from the coordinating thread. */
    final AtomicLong completed = new AtomicLong();

    Worker(int id, EventLoop loop, LoadConfig config, ByteBufAllocator alloc) {
        this.id = id;
        this.loop = loop;
        this.config = config;
        this.alloc = alloc;
        this.txScratch = new byte[config.payloadBytes()];
        this.rxScratch = new byte[Math.max(config.payloadBytes(), 65_535)];
        this.frameBytes = ChannelData.frameBytes(config.payloadBytes(), config.transport().stream());
        this.lossTimeoutNs = TimeUnit.MILLISECONDS.toNanos(config.lossTimeoutMs());
        this.histogram = new Histogram(MAX_LATENCY_NS, 3);
    }

    SequenceTracker tracker() {
        return tracker;
    }

    Histogram histogram() {
        return histogram;
    }

    /** Starts a phase: fresh counters and histogram, then fills the window. */
    CompletableFuture<Void> requestStart() {
        CompletableFuture<Void> started = new CompletableFuture<>();
        loop.execute(() -> {
            if (tracker == null) {
                tracker = new SequenceTracker(config.window(), clients.size());
                expiryTask =
                        loop.scheduleAtFixedRate(this::expire, EXPIRY_TICK_MS, EXPIRY_TICK_MS, TimeUnit.MILLISECONDS);
            }
            tracker.resetCounters();
            histogram = new Histogram(MAX_LATENCY_NS, 3);
            completed.set(0);
            running = true;
            drained = null;
            for (int slot = 0; slot < config.window(); slot++) {
                if (!tracker.isOutstanding(slot)) {
                    send(slot);
                }
            }
            flushDirty();
            started.complete(null);
        });
        return started;
    }

    /** Stops issuing; completes once every packet in flight has come back or been declared lost. */
    CompletableFuture<Void> requestStop() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        loop.execute(() -> {
            running = false;
            drained = f;
            checkDrained();
        });
        return f;
    }

    void cancelTimers() {
        loop.execute(() -> {
            if (expiryTask != null) {
                expiryTask.cancel(false);
            }
        });
    }

    private void checkDrained() {
        if (!running && drained != null && tracker.outstanding() == 0) {
            CompletableFuture<Void> f = drained;
            drained = null;
            f.complete(null);
        }
    }

    private void send(int slot) {
        ClientSession c = clients.get(roundRobin);
        roundRobin = roundRobin + 1 == clients.size() ? 0 : roundRobin + 1;
        long seq = tracker.issue(slot, System.nanoTime());
        int n = config.payloadBytes();
        payload.write(txScratch, 0, n, id, slot, seq, c.localIndex);
        ByteBuf buf = alloc.directBuffer(frameBytes, frameBytes);
        buf.writeShort(ClientSession.CHANNEL).writeShort(n).writeBytes(txScratch, 0, n);
        buf.writeZero(frameBytes - buf.writerIndex());
        c.write(buf);
        if (!c.dirty) {
            c.dirty = true;
            dirty.add(c);
        }
    }

    void flushDirty() {
        for (int i = 0; i < dirty.size(); i++) {
            ClientSession c = dirty.get(i);
            c.dirty = false;
            c.channel().flush();
        }
        dirty.clear();
    }

    /** One ChannelData frame from the server (the echo of a packet this worker sent). */
    void onChannelData(ClientSession c, ByteBuf frame) {
        long nowNs = System.nanoTime();
        int r = frame.readerIndex();
        int channel = frame.getUnsignedShort(r);
        int n = frame.getUnsignedShort(r + 2);
        if (tracker == null) {
            return; // echo of nothing we sent: cannot happen before the first phase
        }
        if (channel != ClientSession.CHANNEL
                || n > frame.readableBytes() - ChannelData.HEADER_BYTES
                || n > rxScratch.length) {
            tracker.corrupt();
            return;
        }
        frame.getBytes(r + ChannelData.HEADER_BYTES, rxScratch, 0, n);
        if (n != config.payloadBytes()
                || !payload.verify(rxScratch, 0, n)
                || Payload.worker(rxScratch, 0) != id
                || Payload.client(rxScratch, 0) != c.localIndex) {
            tracker.corrupt();
            return;
        }
        int slot = Payload.slot(rxScratch, 0);
        SequenceTracker.Outcome o = tracker.onEcho(slot, Payload.sequence(rxScratch, 0), c.localIndex, nowNs);
        if (o == SequenceTracker.Outcome.COMPLETE) {
            histogram.recordValue(Math.min(tracker.lastLatencyNs(), MAX_LATENCY_NS));
            completed.lazySet(tracker.complete());
            if (running) {
                send(slot);
            } else {
                checkDrained();
            }
        }
    }

    private void expire() {
        if (tracker == null) {
            return;
        }
        tracker.expire(System.nanoTime(), lossTimeoutNs, slot -> {
            if (running) {
                send(slot);
            }
        });
        flushDirty();
        checkDrained();
    }
}
