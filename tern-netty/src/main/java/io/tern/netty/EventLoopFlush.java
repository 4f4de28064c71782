package io.tern.netty;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayList;

/**
 * The per-event-loop flush: holds back the flush of everything written on one event loop until
 * the loop has read every socket that was ready in this turn. A UDP socket's queued datagrams then
 * leave in one sendmmsg call instead of one sendto each (a relay writes most of its packets to the
 * same client-facing socket, and the syscall per datagram was the largest single cost on the relay
 * path), a TCP/TLS connection's messages in one write (one run of TLS records), and a WebSocket's
 * frames of a whole read batch in one write. A channel is flushed early after
 * {@value #MAX_QUEUED_MESSAGES} messages, or when it is over its write-buffer high water mark.
 * Used only from the loop's own thread.
 */
public final class EventLoopFlush {
    /** The shared flush of each loop, for adapters that do not own their loop (see {@link #of}). */
    private static final FastThreadLocal<EventLoopFlush> SHARED = new FastThreadLocal<>();

    /** A channel with this many unflushed messages is flushed at once, which bounds the delay a long turn adds. */
    static final int MAX_QUEUED_MESSAGES = 64;

    private final EventLoop loop;
    private final ArrayList<Slot> pending = new ArrayList<>();
    private final Runnable flushPending = this::flushPending;
    private boolean flushScheduled;

    public EventLoopFlush(EventLoop loop) {
        this.loop = loop;
    }

    /**
     * The flush shared by every channel of {@code loop} that asks for it, created on first use.
     * Call on the loop's own thread.
     */
    public static EventLoopFlush of(EventLoop loop) {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException("EventLoopFlush.of must be called on the loop's thread");
        }
        EventLoopFlush flush = SHARED.get();
        if (flush == null || flush.loop != loop) {
            flush = new EventLoopFlush(loop);
            SHARED.set(flush);
        }
        return flush;
    }

    /** A channel written through this flush, with its place in the turn's pending list. */
    public static final class Slot {
        private final Channel channel;
        private int queuedMessages;
        private boolean pending;

        public Slot(Channel channel) {
            this.channel = channel;
        }

        public Channel channel() {
            return channel;
        }
    }

    /**
     * Whether the channel takes more data. A channel over its write-buffer mark is flushed first
     * when it holds messages of this turn that were not flushed yet, since they may be what holds
     * it over the mark. One with nothing new is not flushed again: for a reader that stopped, every
     * dropped message would otherwise cost a write attempt, and on TLS an empty record queued with
     * its promise, which no water mark counts.
     */
    public boolean writable(Slot slot) {
        if (slot.channel.isWritable()) {
            return true;
        }
        if (slot.queuedMessages == 0) {
            return false;
        }
        flush(slot);
        return slot.channel.isWritable();
    }

    /** Queues one message (a ByteBuf or a DatagramPacket); its reference passes to the channel. */
    public void write(Slot slot, Object message) {
        Channel channel = slot.channel;
        channel.write(message, channel.voidPromise());
        if (++slot.queuedMessages >= MAX_QUEUED_MESSAGES) {
            flush(slot);
            return;
        }
        if (!slot.pending) {
            slot.pending = true;
            pending.add(slot);
        }
        if (!flushScheduled) {
            flushScheduled = true;
            // Tasks run after the I/O of the current turn, so the flush sees every message of the turn.
            loop.execute(flushPending);
        }
    }

    private void flushPending() {
        flushScheduled = false;
        for (int i = 0; i < pending.size(); i++) {
            Slot slot = pending.get(i);
            slot.pending = false;
            if (slot.queuedMessages > 0) {
                flush(slot);
            }
        }
        pending.clear();
    }

    /** Flushes the channel's queued messages now (before a half-close, say). */
    public static void flush(Slot slot) {
        slot.queuedMessages = 0;
        slot.channel.flush();
    }
}
