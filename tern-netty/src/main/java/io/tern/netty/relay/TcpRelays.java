package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.unix.Socket;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.NettyTransports;
import io.tern.netty.stream.QueuedMessageSize;
import io.tern.netty.stream.StreamConnections;
import io.tern.netty.stream.StreamSettings;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.Command;
import io.tern.turn.engine.TurnEngine;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.util.ArrayList;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The TCP sockets of TCP allocations (RFC 6062), by relay id: a listening socket on each relayed
 * address, for peers that connect in, and one connection per peer, opened from that address for
 * a Connect or accepted by the listener. A peer connection is not read until the engine has bound
 * it to a client data connection; then raw bytes flow both ways, each direction bounded by the
 * other connection's write queue (reading pauses while it is full).
 */
final class TcpRelays {
    private final RelayShard shard;
    private final EventLoop loop;
    private final StreamSettings settings;
    private final Int2ObjectHashMap<ServerSocketChannel> listeners = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<PeerLink> peers = new Int2ObjectHashMap<>();

    TcpRelays(RelayShard shard, EventLoop loop, StreamSettings settings) {
        this.shard = shard;
        this.loop = loop;
        this.settings = settings;
    }

    /** OPEN_RELAY for a TCP allocation: a listening socket on the relayed address; answered when bound. */
    void openListener(int relayId, TransportAddress address) {
        ServerSocketChannel channel = NettyTransports.newServerSocketChannel();
        // Connect requests open connections from the same address, which the listener holds.
        reuseAddressAndPort(channel);
        channel.pipeline().addLast(new Acceptor(relayId));
        loop.register(channel).addListener((ChannelFutureListener) registered -> {
            if (!registered.isSuccess()) {
                shard.answer(Command.OPEN_RELAY, relayId, false);
                return;
            }
            channel.bind(address.toInetSocketAddress()).addListener((ChannelFutureListener) bound -> {
                if (bound.isSuccess()) {
                    listeners.put(relayId, channel);
                } else {
                    channel.close();
                }
                shard.answer(Command.OPEN_RELAY, relayId, bound.isSuccess());
            });
        });
    }

    /** CONNECT_PEER: a connection to {@code peer} from the address of listener {@code parentRelayId}. */
    void connect(int relayId, int parentRelayId, TransportAddress peer) {
        ServerSocketChannel listener = listeners.get(parentRelayId);
        if (listener == null) {
            shard.answer(Command.CONNECT_PEER, relayId, false);
            return;
        }
        InetSocketAddress local = listener.localAddress();
        SocketChannel channel = NettyTransports.newSocketChannel();
        configure(channel);
        if (!reuseAddressAndPort(channel)) {
            channel.close();
            shard.answer(Command.CONNECT_PEER, relayId, false);
            return;
        }
        PeerLink link = new PeerLink(relayId, channel);
        peers.put(relayId, link);
        channel.pipeline().addLast(link);
        InetSocketAddress remote = peer.toInetSocketAddress();
        loop.register(channel).addListener((ChannelFutureListener) registered -> {
            if (!registered.isSuccess()) {
                connected(link, false);
                return;
            }
            channel.bind(local).addListener((ChannelFutureListener) bound -> {
                if (!bound.isSuccess()) {
                    connected(link, false);
                    return;
                }
                channel.connect(remote).addListener((ChannelFutureListener) f -> connected(link, f.isSuccess()));
            });
        });
    }

    private void connected(PeerLink link, boolean success) {
        if (peers.get(link.relayId) != link) {
            // Closed meanwhile (the engine gave up on it): nothing to report.
            link.channel.close();
            return;
        }
        if (!success) {
            peers.remove(link.relayId);
            link.closedByUs = true;
            link.channel.close();
        }
        shard.answer(Command.CONNECT_PEER, link.relayId, success);
    }

    /** BIND_CONNECTION: from now on bytes flow between the peer connection and the client data connection. */
    void bind(int relayId, long dataConnectionId) {
        PeerLink link = peers.get(relayId);
        if (link == null) {
            return;
        }
        StreamConnections streams = shard.streams();
        if (!streams.splice(dataConnectionId, link.channel, link.flushSlot)) {
            close(relayId);
            return;
        }
        link.dataConnectionId = dataConnectionId;
        link.channel.config().setAutoRead(true);
    }

    /** CLOSE_RELAY for a TCP listener or a peer connection (and the data connection bound to it). */
    void close(int relayId) {
        ServerSocketChannel listener = listeners.remove(relayId);
        if (listener != null) {
            listener.close();
            return;
        }
        PeerLink link = peers.remove(relayId);
        if (link != null) {
            link.closedByUs = true;
            link.channel.close();
            if (link.dataConnectionId != 0) {
                shard.streams().close(link.dataConnectionId);
            }
        }
    }

    void closeAll() {
        for (ServerSocketChannel listener : new ArrayList<>(listeners.values())) {
            listener.close();
        }
        listeners.clear();
        for (PeerLink link : new ArrayList<>(peers.values())) {
            link.closedByUs = true;
            link.channel.close();
        }
        peers.clear();
    }

    /**
     * SO_REUSEADDR and SO_REUSEPORT, so that a connection to a peer can be bound to the relayed
     * address its allocation listens on (RFC 6062 §5.2). Netty's epoll client channels do not take
     * SO_REUSEPORT as an option, so it is set on their socket directly. False when it can't be set.
     */
    private static boolean reuseAddressAndPort(Channel channel) {
        channel.config().setOption(ChannelOption.SO_REUSEADDR, true);
        try {
            if (channel instanceof EpollSocketChannel epoll) {
                new Socket(epoll.fd().intValue()).setReusePort(true);
                return true;
            }
            if (channel instanceof EpollServerSocketChannel) {
                return channel.config().setOption(EpollChannelOption.SO_REUSEPORT, true);
            }
            return channel.config().setOption(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private void configure(Channel channel) {
        channel.config().setAutoRead(false);
        channel.config().setOption(ChannelOption.TCP_NODELAY, true);
        channel.config().setOption(ChannelOption.MESSAGE_SIZE_ESTIMATOR, QueuedMessageSize.INSTANCE);
        channel.config()
                .setOption(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(
                                settings.writeLowWaterMarkBytes(), settings.writeHighWaterMarkBytes()));
    }

    /** Accepts peers on a TCP relay listener, when the engine agrees (RFC 6062 §5.3). */
    private final class Acceptor extends ChannelInboundHandlerAdapter {
        private final int listenerRelayId;
        private final TransportAddress from = new TransportAddress();

        Acceptor(int listenerRelayId) {
            this.listenerRelayId = listenerRelayId;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel child = (Channel) msg;
            from.set((InetSocketAddress) child.remoteAddress());
            TurnEngine engine = shard.engine();
            int relayId = engine.onPeerConnectionAccepted(listenerRelayId, from, shard.nowNs());
            if (relayId < 0) {
                child.unsafe().closeForcibly();
                shard.drain();
                return;
            }
            configure(child);
            PeerLink link = new PeerLink(relayId, child);
            peers.put(relayId, link);
            child.pipeline().addLast(link);
            loop.register(child);
            shard.drain();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Accept errors (too many open files) must not close the listener.
        }
    }

    /** One peer connection: what it reads goes to its data connection, once bound. */
    private final class PeerLink extends ChannelInboundHandlerAdapter {
        final int relayId;
        final Channel channel;
        final EventLoopFlush.Slot flushSlot;
        long dataConnectionId;
        boolean closedByUs;

        PeerLink(int relayId, Channel channel) {
            this.relayId = relayId;
            this.channel = channel;
            this.flushSlot = new EventLoopFlush.Slot(channel);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf bytes = (ByteBuf) msg;
            if (dataConnectionId == 0) {
                bytes.release();
                return;
            }
            if (!shard.streams().forwardFromPeer(dataConnectionId, bytes)) {
                // The client's queue is full: stop reading the peer until it drains (TCP pushes back).
                channel.config().setAutoRead(false);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (channel.isWritable() && dataConnectionId != 0) {
                shard.streams().resumeReading(dataConnectionId);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (closedByUs) {
                return;
            }
            peers.remove(relayId);
            if (dataConnectionId != 0) {
                shard.streams().close(dataConnectionId);
            }
            shard.engine().onPeerConnectionClosed(relayId, shard.nowNs());
            shard.drain();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
