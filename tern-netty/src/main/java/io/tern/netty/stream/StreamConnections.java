package io.tern.netty.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.tern.netty.EventLoopFlush;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.channel.ChannelDataFlyweight;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The TCP and TLS connections of one relay thread, by connection id: accepts them (within the
 * {@link ConnectionLimiter}), writes the engine's output to them, and closes those that time out.
 * Everything but the limiter and counters is confined to the thread's event loop.
 *
 * <p>Writes are flushed once per event-loop turn, after the reads that caused them, so a burst of
 * relayed datagrams for one client leaves in one system call (one TLS record run for TLS).
 */
public final class StreamConnections {
    private static final long MAX_SWEEP_PERIOD_NS = TimeUnit.SECONDS.toNanos(1);

    private final EventLoop loop;
    private final EventLoopFlush flush;
    private final StreamHost host;
    private final TurnCounters engineCounters;
    private final StreamSettings settings;
    private final ConnectionLimiter limiter;
    private final StreamCounters counters;
    private final Long2ObjectHashMap<StreamConnection> connections = new Long2ObjectHashMap<>();
    private final List<StreamConnection> expired = new ArrayList<>();
    /** TCP connections written since {@link #flushWritten} last ran (TLS ones wait for the end of the turn). */
    private final List<StreamConnection> written = new ArrayList<>();

    private final UnsafeBuffer copyView = new UnsafeBuffer(0, 0);
    private final long sweepPeriodNs;
    private long nextSweepNs;
    private long nextConnectionId = 1;

    public StreamConnections(
            EventLoop loop,
            EventLoopFlush flush,
            StreamHost host,
            TurnCounters engineCounters,
            StreamSettings settings,
            ConnectionLimiter limiter,
            StreamCounters counters) {
        this.loop = loop;
        this.flush = flush;
        this.host = host;
        this.engineCounters = engineCounters;
        this.settings = settings;
        this.limiter = limiter;
        this.counters = counters;
        this.sweepPeriodNs =
                Math.min(MAX_SWEEP_PERIOD_NS, Math.min(settings.idleTimeoutNs(), settings.messageTimeoutNs()) / 4);
    }

    /**
     * The pipeline of an accepted connection on listener {@code listenerId}: TLS first when
     * {@code tls} is given, then the framing {@link StreamConnection}. The channel must be
     * registered with this thread's loop.
     */
    public ChannelInitializer<Channel> initializer(int listenerId, TlsContextSource tls) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                accept(ch, listenerId, tls);
            }
        };
    }

    private void accept(Channel ch, int listenerId, TlsContextSource tls) {
        InetSocketAddress remote = (InetSocketAddress) ch.remoteAddress();
        StreamEvent refused = limiter.tryAcquire(remote.getAddress());
        if (refused != null) {
            counters.add(refused);
            ch.close();
            return;
        }
        StreamConnection connection =
                register(ch, listenerId, remote, tls != null ? TransportProtocol.TLS : TransportProtocol.TCP);
        if (tls != null) {
            SslHandler ssl = tls.current().newHandler(ch.alloc());
            ssl.setHandshakeTimeout(settings.tlsHandshakeTimeoutNs(), TimeUnit.NANOSECONDS);
            // One TLS record per TURN message, as coturn writes them: turnutils_uclient takes one
            // message from each SSL_read and drops the rest of a record that holds several. The
            // flush still sends a turn's records in one write.
            ssl.setWrapDataSize(0);
            ssl.handshakeFuture().addListener(f -> {
                if (!f.isSuccess()) {
                    counters.add(
                            f.cause() instanceof SslHandshakeTimeoutException
                                    ? StreamEvent.TLS_HANDSHAKE_TIMEOUT
                                    : StreamEvent.TLS_HANDSHAKE_FAILED);
                }
            });
            ch.pipeline().addLast(ssl);
        }
        ch.pipeline().addLast(connection);
    }

    /** Gives an accepted channel its connection id; the returned handler must go into its pipeline. */
    StreamConnection register(Channel ch, int listenerId, InetSocketAddress remote, TransportProtocol protocol) {
        counters.add(StreamEvent.ACCEPTED);
        return track(ch, listenerId, remote, protocol);
    }

    private StreamConnection track(Channel ch, int listenerId, InetSocketAddress remote, TransportProtocol protocol) {
        long connectionId = nextConnectionId++;
        StreamConnection connection = new StreamConnection(
                this, host, ch, listenerId, connectionId, TransportAddress.of(remote), protocol, host.nowNs());
        connections.put(connectionId, connection);
        ChannelFutureListener onClose = f -> closed(connection, remote);
        connection.onClose(onClose);
        ch.closeFuture().addListener(onClose);
        return connection;
    }

    /** MIGRATE_CONNECTION: the connection moves to another relay thread after its current message. */
    public void migrate(long connectionId, int targetShard, DirectBuffer message, int offset, int length) {
        StreamConnection connection = connections.get(connectionId);
        if (connection == null) {
            return;
        }
        ByteBuf replay = connection.channel().alloc().directBuffer(length);
        copyView.wrap(replay.memoryAddress(), replay.capacity());
        copyView.putBytes(0, message, offset, length);
        replay.writerIndex(length);
        connection.migrate(targetShard, replay);
    }

    /** Lets go of a connection for another thread: no longer read, timed or closed from here. */
    void handOver(StreamConnection connection, int targetShard, ByteBuf replay) {
        Channel channel = connection.channel();
        connections.remove(connection.connectionId());
        channel.closeFuture().removeListener(connection.onClose());
        channel.config().setAutoRead(false);
        channel.pipeline().remove(connection);
        connection.released();
        InetSocketAddress remote = (InetSocketAddress) channel.remoteAddress();
        channel.deregister().addListener(f -> {
            if (f.isSuccess() && remote != null) {
                counters.add(StreamEvent.MOVED_TO_OTHER_THREAD);
                host.handOver(targetShard, channel, connection.listenerId(), connection.protocol(), remote, replay);
            } else {
                replay.release();
                limiter.release(remote == null ? null : remote.getAddress());
                counters.add(StreamEvent.CLOSED);
                channel.close();
            }
        });
    }

    /**
     * A connection another relay thread handed over: registered with this thread's loop, and
     * {@code replay} handled as if just read from it. Call on this thread.
     */
    public void adopt(
            Channel channel, int listenerId, TransportProtocol protocol, InetSocketAddress remote, ByteBuf replay) {
        StreamConnection connection = track(channel, listenerId, remote, protocol);
        channel.pipeline().addLast(connection);
        loop.register(channel).addListener(f -> {
            if (!f.isSuccess()) {
                replay.release();
                channel.close();
                return;
            }
            connection.channelRead(channel.pipeline().context(connection), replay);
            channel.config().setAutoRead(true);
        });
    }

    private void closed(StreamConnection connection, InetSocketAddress remote) {
        connections.remove(connection.connectionId());
        connection.released();
        limiter.release(remote.getAddress());
        counters.add(StreamEvent.CLOSED);
        host.onStreamClosed(connection.listenerId(), connection.connectionId(), connection.client());
    }

    void count(StreamEvent event) {
        counters.add(event);
    }

    long nowNs() {
        return host.nowNs();
    }

    // ---------------------------------------------------------------------------------------------
    // Data connections bound to peer connections (RFC 6062)

    /** Binds client data connection {@code connectionId} to a peer connection; false when it is gone. */
    public boolean splice(long connectionId, Channel peer, EventLoopFlush.Slot peerSlot) {
        StreamConnection connection = connections.get(connectionId);
        if (connection == null || !connection.channel().isActive()) {
            return false;
        }
        connection.splice(peer, peerSlot);
        return true;
    }

    /**
     * Raw bytes from a bound data connection to its peer (their reference passes on). Returns
     * false when the peer's write queue is full, so the client's connection should stop reading.
     */
    boolean forwardToPeer(StreamConnection from, EventLoopFlush.Slot peer, ByteBuf bytes) {
        engineCounters.relayed(TurnCounters.DIRECTION_CLIENT_TO_PEER, from.protocol(), bytes.readableBytes());
        flush.write(peer, bytes);
        return peer.channel().isWritable();
    }

    /**
     * Raw bytes from a peer connection for its bound data connection (their reference passes on).
     * Returns false when the client's write queue is full, so the peer should stop being read.
     */
    public boolean forwardFromPeer(long connectionId, ByteBuf bytes) {
        StreamConnection connection = connections.get(connectionId);
        if (connection == null) {
            bytes.release();
            return true;
        }
        engineCounters.relayed(TurnCounters.DIRECTION_PEER_TO_CLIENT, connection.protocol(), bytes.readableBytes());
        flush.write(connection.flushSlot(), bytes);
        return writable(connection);
    }

    /** The peer connection of {@code connectionId} has room again: read the client once more. */
    public void resumeReading(long connectionId) {
        StreamConnection connection = connections.get(connectionId);
        if (connection != null) {
            connection.channel().config().setAutoRead(true);
        }
    }

    public void close(long connectionId) {
        StreamConnection connection = connections.get(connectionId);
        if (connection != null) {
            connection.channel().close();
        }
    }

    /**
     * Sends one engine message to a connection: STUN as is, ChannelData padded to 4 bytes
     * (RFC 8656 §12.5). When the connection's write queue is past its high water mark the message
     * is dropped and counted, so a client that stops reading costs a bounded amount of memory.
     */
    public void send(long connectionId, DirectBuffer buffer, int offset, int length) {
        StreamConnection connection = connections.get(connectionId);
        if (connection == null) {
            return;
        }
        Channel channel = connection.channel();
        if (!writable(connection)) {
            if (channel.isActive()) {
                engineCounters.drop(DropReason.CLIENT_BACKPRESSURE);
            }
            return;
        }
        int wireBytes = ChannelDataFlyweight.isChannelData(buffer, offset, length)
                ? ChannelDataFlyweight.paddedLength(length - ChannelDataFlyweight.HEADER_LENGTH)
                : length;
        ByteBuf out = channel.alloc().directBuffer(wireBytes);
        copyView.wrap(out.memoryAddress(), out.capacity());
        copyView.putBytes(0, buffer, offset, length);
        if (wireBytes > length) {
            copyView.setMemory(length, wireBytes - length, (byte) 0);
        }
        out.writerIndex(wireBytes);
        flush.write(connection.flushSlot(), out);
        if (!connection.written && connection.protocol() == TransportProtocol.TCP) {
            connection.written = true;
            written.add(connection);
        }
    }

    /**
     * Flushes the connections written since the last call now rather than at the end of the turn:
     * called when a relay socket's read is done, whose datagrams go to one client connection only,
     * so that the client has them while this thread reads its other sockets; the connection is not
     * written again in this turn, so its messages still leave in one system call.
     */
    public void flushWritten() {
        for (int i = 0; i < written.size(); i++) {
            StreamConnection connection = written.get(i);
            connection.written = false;
            EventLoopFlush.flush(connection.flushSlot());
        }
        written.clear();
    }

    /** When {@link #onTimer} should next run: the next sweep while there are connections. */
    public long nextDeadlineNs() {
        if (connections.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return nextSweepNs;
    }

    /** Closes connections that were idle or sent a message too slowly; call from the loop's timer. */
    public void onTimer(long nowNs) {
        if (nowNs - nextSweepNs < 0) {
            return;
        }
        nextSweepNs = nowNs + sweepPeriodNs;
        for (StreamConnection connection : connections.values()) {
            if (connection.timeout(nowNs, settings) != null) {
                expired.add(connection);
            }
        }
        for (int i = 0; i < expired.size(); i++) {
            StreamConnection connection = expired.get(i);
            StreamEvent reason = connection.timeout(nowNs, settings);
            if (reason != null) {
                connection.close(reason);
            }
        }
        expired.clear();
    }

    private boolean writable(StreamConnection connection) {
        return flush.writable(connection.flushSlot());
    }

    public int size() {
        return connections.size();
    }

    /** Bytes this thread holds for its connections: partial messages and write queues. */
    public long bufferedBytes() {
        long total = 0;
        for (StreamConnection connection : connections.values()) {
            total += connection.bufferedBytes();
            ChannelOutboundBuffer queue = connection.channel().unsafe().outboundBuffer();
            if (queue != null) {
                total += queue.totalPendingWriteBytes();
            }
        }
        return total;
    }

    /** The largest write queue of any connection, in bytes. */
    public long largestWriteQueueBytes() {
        long largest = 0;
        for (StreamConnection connection : connections.values()) {
            ChannelOutboundBuffer queue = connection.channel().unsafe().outboundBuffer();
            if (queue != null) {
                largest = Math.max(largest, queue.totalPendingWriteBytes());
            }
        }
        return largest;
    }

    /**
     * The most messages queued for one connection. Messages of any size count, empty ones too: a
     * queue bounded in bytes could still grow by entries that hold no bytes.
     */
    public long largestWriteQueueMessages() {
        long largest = 0;
        for (StreamConnection connection : connections.values()) {
            ChannelOutboundBuffer queue = connection.channel().unsafe().outboundBuffer();
            if (queue != null) {
                largest = Math.max(largest, queue.size());
            }
        }
        return largest;
    }

    /** Closes every connection; their allocations go with them. */
    public void closeAll() {
        for (StreamConnection connection : new ArrayList<>(connections.values())) {
            connection.channel().close();
        }
    }
}
