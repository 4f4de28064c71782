package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.EventLoopFlush.Slot;
import io.tern.netty.HeadroomRecvByteBufAllocator;
import io.tern.netty.NettyTransports;
import io.tern.netty.stream.ConnectionLimiter;
import io.tern.netty.stream.StreamConnections;
import io.tern.netty.stream.StreamCounters;
import io.tern.netty.stream.StreamHost;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.RelaySockets;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.engine.TurnEngineSink;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One relay thread: an event loop, the TURN engine it drives, its client-facing UDP listeners, the
 * TCP and TLS connections accepted on its loop, and the relay sockets of its allocations.
 * Everything here runs on the loop's thread, so nothing locks. A stream client's allocation lives
 * in the engine of the thread that accepted its connection.
 */
final class RelayShard implements TurnEngineSink, RelaySockets, StreamHost {
    private static final int MAX_CACHED_ADDRESSES = 65536;
    /** Largest datagram relayed in place; longer ones are copied first. */
    private static final int DATAGRAM_BYTES = 2048;
    /** A datagram this long filled its receive slot and may have been cut short, so it is dropped. */
    private static final int TRUNCATED_BYTES = TurnEngine.PEER_PACKET_HEADROOM + DATAGRAM_BYTES;
    /** 8 slots of 2052 bytes stay within the allocator's pooled buffer sizes. */
    private static final int DATAGRAMS_PER_READ = 8;
    /** The client-facing socket carries every allocation's traffic, so it may read more per wake-up. */
    private static final int LISTENER_DATAGRAMS_PER_WAKEUP = 64;

    private static final int RELAY_DATAGRAMS_PER_WAKEUP = 32;

    private final EventLoop loop;
    private final TurnEngine engine;
    private final StreamConnections streams;
    private final EventLoopFlush flush;
    private final Int2ObjectHashMap<Slot> listeners = new Int2ObjectHashMap<>();
    private final List<Channel> streamListeners = new ArrayList<>();
    private final Int2ObjectHashMap<Slot> relays = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<InetSocketAddress> ipv4Addresses = new Long2ObjectHashMap<>();
    private final Map<TransportAddress, InetSocketAddress> ipv6Addresses = new HashMap<>();
    private final TransportAddress remote = new TransportAddress();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer copyView = new UnsafeBuffer(0, 0);
    private ByteBuf inbound;
    private int nextRelayId;

    RelayShard(EventLoop loop, TransportSettings settings, ConnectionLimiter limiter, StreamCounters streamCounters) {
        this.loop = loop;
        this.flush = new EventLoopFlush(loop);
        this.engine = new TurnEngine(settings.engineConfig(), settings.shared(), this, this, System.nanoTime());
        this.streams =
                new StreamConnections(flush, this, engine.counters(), settings.streams(), limiter, streamCounters);
    }

    StreamConnections streams() {
        return streams;
    }

    TurnEngine engine() {
        return engine;
    }

    EventLoop loop() {
        return loop;
    }

    void addListener(DatagramChannel channel, int listenerId) {
        HeadroomRecvByteBufAllocator.configure(
                channel,
                TurnEngine.PEER_PACKET_HEADROOM,
                DATAGRAM_BYTES,
                DATAGRAMS_PER_READ,
                LISTENER_DATAGRAMS_PER_WAKEUP);
        listeners.put(listenerId, new Slot(channel));
        engine.registerListener(listenerId, TransportProtocol.UDP);
        channel.pipeline().addLast(new ClientHandler(listenerId));
    }

    /** A TCP or TLS server channel bound on this loop; its connections are this shard's. */
    void addStreamListener(Channel serverChannel, int listenerId, TransportProtocol protocol) {
        streamListeners.add(serverChannel);
        engine.registerListener(listenerId, protocol);
    }

    void onTimer() {
        long nowNs = System.nanoTime();
        engine.onTimeout(nowNs);
        streams.onTimer(nowNs);
    }

    void close() {
        for (Channel listener : streamListeners) {
            listener.close();
        }
        streams.closeAll();
        engine.close();
        for (Slot listener : listeners.values()) {
            listener.channel().close();
        }
    }

    // ---- TurnEngineSink

    @Override
    public void sendToClient(
            int listenerId, long connectionId, TransportAddress client, DirectBuffer buffer, int offset, int length) {
        if (connectionId != NO_CONNECTION) {
            streams.send(connectionId, buffer, offset, length);
            return;
        }
        Slot listener = listeners.get(listenerId);
        if (listener != null) {
            send(listener, inetAddress(client), buffer, offset, length);
        }
    }

    @Override
    public void sendToPeer(int relayId, TransportAddress peer, DirectBuffer buffer, int offset, int length) {
        Slot relay = relays.get(relayId);
        if (relay != null) {
            send(relay, inetAddress(peer), buffer, offset, length);
        }
    }

    private void send(Slot socket, InetSocketAddress recipient, DirectBuffer buffer, int offset, int length) {
        if (!flush.writable(socket)) {
            engine.counters().transportDrop(DropReason.CLIENT_BACKPRESSURE);
            return;
        }
        ByteBuf payload;
        if (inbound != null && buffer == view) {
            // Relayed data: send a slice of the datagram we received, without copying it.
            payload = inbound.retainedSlice(offset, length);
        } else {
            payload = socket.channel().alloc().directBuffer(length);
            copyView.wrap(payload.memoryAddress(), length);
            copyView.putBytes(0, buffer, offset, length);
            payload.writerIndex(length);
        }
        flush.write(socket, new DatagramPacket(payload, recipient));
    }

    private InetSocketAddress inetAddress(TransportAddress address) {
        if (address.isIpv4()) {
            long key = address.packedIpv4();
            InetSocketAddress cached = ipv4Addresses.get(key);
            if (cached == null) {
                if (ipv4Addresses.size() >= MAX_CACHED_ADDRESSES) {
                    ipv4Addresses.clear();
                }
                cached = address.toInetSocketAddress();
                ipv4Addresses.put(key, cached);
            }
            return cached;
        }
        InetSocketAddress cached = ipv6Addresses.get(address);
        if (cached == null) {
            if (ipv6Addresses.size() >= MAX_CACHED_ADDRESSES) {
                ipv6Addresses.clear();
            }
            cached = address.toInetSocketAddress();
            ipv6Addresses.put(address.copy(), cached);
        }
        return cached;
    }

    // ---- RelaySockets

    @Override
    public int open(TransportAddress address) {
        DatagramChannel channel = NettyTransports.newDatagramChannel(!address.isIpv4());
        int relayId = nextRelayId++;
        HeadroomRecvByteBufAllocator.configure(
                channel,
                TurnEngine.PEER_PACKET_HEADROOM,
                DATAGRAM_BYTES,
                DATAGRAMS_PER_READ,
                RELAY_DATAGRAMS_PER_WAKEUP);
        channel.pipeline().addLast(new PeerHandler(relayId));
        ChannelFuture registered = loop.register(channel);
        if (!registered.isDone() || !registered.isSuccess()) {
            channel.close();
            return -1;
        }
        ChannelFuture bound = channel.bind(address.toInetSocketAddress());
        if (!bound.isDone() || !bound.isSuccess()) {
            channel.close();
            return -1;
        }
        relays.put(relayId, new Slot(channel));
        return relayId;
    }

    @Override
    public void close(int relayId) {
        Slot relay = relays.remove(relayId);
        if (relay != null) {
            relay.channel().close();
        }
    }

    // ---- StreamHost

    @Override
    public void onStreamMessage(
            int listenerId, long connectionId, TransportAddress client, ByteBuf buffer, int index, int length) {
        try {
            inbound = buffer;
            engine.onClientPacket(listenerId, connectionId, client, wrap(buffer), index, length, System.nanoTime());
        } finally {
            inbound = null;
        }
    }

    @Override
    public void onStreamClosed(int listenerId, long connectionId, TransportAddress client) {
        engine.onConnectionClosed(listenerId, connectionId, client, System.nanoTime());
    }

    @Override
    public boolean hasAllocation(int listenerId, long connectionId, TransportAddress client) {
        return engine.allocations().find(listenerId, connectionId, client) != null;
    }

    // ---- Inbound

    private UnsafeBuffer wrap(ByteBuf content) {
        view.wrap(content.memoryAddress(), content.capacity());
        return view;
    }

    private final class ClientHandler extends ChannelInboundHandlerAdapter {
        private final int listenerId;

        ClientHandler(int listenerId) {
            this.listenerId = listenerId;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            ByteBuf content = packet.content();
            try {
                if (!content.hasMemoryAddress()) {
                    return;
                }
                if (content.readableBytes() >= TRUNCATED_BYTES) {
                    engine.counters().transportDrop(DropReason.OVERSIZED);
                    return;
                }
                inbound = content;
                remote.set(packet.sender());
                engine.onClientPacket(
                        listenerId,
                        NO_CONNECTION,
                        remote,
                        wrap(content),
                        content.readerIndex(),
                        content.readableBytes(),
                        System.nanoTime());
            } finally {
                inbound = null;
                packet.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // ICMP errors surface here as PortUnreachableException; a relay keeps serving.
        }
    }

    private final class PeerHandler extends ChannelInboundHandlerAdapter {
        private final int relayId;

        PeerHandler(int relayId) {
            this.relayId = relayId;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            ByteBuf content = packet.content();
            ByteBuf copy = null;
            try {
                if (!content.hasMemoryAddress()) {
                    return;
                }
                int length = content.readableBytes();
                if (length >= TRUNCATED_BYTES) {
                    engine.counters().transportDrop(DropReason.OVERSIZED);
                    return;
                }
                ByteBuf base = length <= DATAGRAM_BYTES ? bufferWithHeadroom(content) : null;
                int offset;
                if (base != null) {
                    offset = (int) (content.memoryAddress() + content.readerIndex() - base.memoryAddress());
                } else {
                    copy = ctx.alloc().directBuffer(TurnEngine.PEER_PACKET_HEADROOM + length);
                    copy.writerIndex(TurnEngine.PEER_PACKET_HEADROOM)
                            .writeBytes(content, content.readerIndex(), length);
                    base = copy;
                    offset = TurnEngine.PEER_PACKET_HEADROOM;
                }
                inbound = base;
                remote.set(packet.sender());
                view.wrap(base.memoryAddress(), base.capacity());
                engine.onPeerPacket(relayId, remote, view, offset, length, System.nanoTime());
            } finally {
                inbound = null;
                packet.release();
                if (copy != null) {
                    copy.release();
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // An ICMP error from an unreachable peer must not tear down the allocation's socket.
        }
    }

    /**
     * The buffer the datagram was received into, found through Netty's slice and leak-detection
     * wrappers, when it has the headroom {@link HeadroomRecvByteBufAllocator} reserved; else null.
     */
    private static ByteBuf bufferWithHeadroom(ByteBuf content) {
        long dataAddress = content.memoryAddress() + content.readerIndex();
        for (ByteBuf b = content; b != null; b = b.unwrap()) {
            if (b.hasMemoryAddress()
                    && dataAddress - b.memoryAddress() >= TurnEngine.PEER_PACKET_HEADROOM
                    && dataAddress - b.memoryAddress() < b.capacity()) {
                return b;
            }
        }
        return null;
    }
}
