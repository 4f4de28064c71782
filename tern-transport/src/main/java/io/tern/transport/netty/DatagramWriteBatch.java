package io.tern.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.util.ArrayList;

/**
 * Holds back the flush of datagrams written on one event loop until the loop has read every socket
 * that was ready in this turn. Netty then gives each channel's queued datagrams to one sendmmsg call
 * instead of one sendto per datagram: a relay writes most of its packets to the same client-facing
 * socket, and the syscall per datagram was the largest single cost on the relay path. Used only
 * from the loop's own thread.
 */
public final class DatagramWriteBatch {
    /** A channel with this many queued datagrams is flushed at once, which bounds the delay a long turn adds. */
    static final int MAX_QUEUED_DATAGRAMS = 64;

    private final EventLoop loop;
    private final ArrayList<Endpoint> pending = new ArrayList<>();
    private final Runnable flushPending = this::flushPending;
    private boolean flushScheduled;

    public DatagramWriteBatch(EventLoop loop) {
        this.loop = loop;
    }

    /** A datagram channel written through this batch, with its place in the batch. */
    public static final class Endpoint {
        private final DatagramChannel channel;
        private int queuedDatagrams;
        private boolean pending;

        public Endpoint(DatagramChannel channel) {
            this.channel = channel;
        }

        public DatagramChannel channel() {
            return channel;
        }
    }

    /**
     * Whether the channel takes more data. A channel over its write-buffer mark is flushed first,
     * because what holds it over the mark may be only this turn's unflushed datagrams.
     */
    public boolean writable(Endpoint endpoint) {
        if (endpoint.channel.isWritable()) {
            return true;
        }
        flush(endpoint);
        return endpoint.channel.isWritable();
    }

    /** Queues one datagram; the payload's reference passes to the channel. */
    public void write(Endpoint endpoint, ByteBuf payload, InetSocketAddress recipient) {
        DatagramChannel channel = endpoint.channel;
        channel.write(new DatagramPacket(payload, recipient), channel.voidPromise());
        if (++endpoint.queuedDatagrams >= MAX_QUEUED_DATAGRAMS) {
            flush(endpoint);
            return;
        }
        if (!endpoint.pending) {
            endpoint.pending = true;
            pending.add(endpoint);
        }
        if (!flushScheduled) {
            flushScheduled = true;
            // Tasks run after the I/O of the current turn, so the flush sees every datagram of the turn.
            loop.execute(flushPending);
        }
    }

    private void flushPending() {
        flushScheduled = false;
        for (int i = 0; i < pending.size(); i++) {
            Endpoint endpoint = pending.get(i);
            endpoint.pending = false;
            if (endpoint.queuedDatagrams > 0) {
                flush(endpoint);
            }
        }
        pending.clear();
    }

    private static void flush(Endpoint endpoint) {
        endpoint.queuedDatagrams = 0;
        endpoint.channel.flush();
    }
}
