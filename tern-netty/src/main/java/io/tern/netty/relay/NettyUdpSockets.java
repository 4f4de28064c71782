package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.EventLoopFlush.Slot;
import io.tern.netty.HeadroomRecvByteBufAllocator;
import io.tern.netty.NettyTransports;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TurnEngine;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@link UdpSockets} over Netty's datagram channels (epoll's recvmmsg reads, the loop's shared
 * {@link EventLoopFlush} for sendmmsg writes): relayed data goes out as a slice of the buffer it
 * was received in, without a copy. The fallback where the FFM path is not available.
 */
final class NettyUdpSockets implements UdpSockets {
    private static final int MAX_CACHED_ADDRESSES = 65536;
    /** A datagram this long filled its receive slot and may have been cut short, so it is dropped. */
    private static final int TRUNCATED_BYTES = TurnEngine.PEER_PACKET_HEADROOM + RelayShard.DATAGRAM_BYTES;
    /** 8 slots of 2052 bytes stay within the allocator's pooled buffer sizes. */
    private static final int DATAGRAMS_PER_READ = 8;
    /** The client-facing socket carries every allocation's traffic, so it may read more per wake-up. */
    private static final int LISTENER_DATAGRAMS_PER_WAKEUP = 64;

    private static final int RELAY_DATAGRAMS_PER_WAKEUP = 16;

    private final EventLoop loop;
    private final EventLoopFlush flush;
    /** Relay sockets written since {@link #flushQueued} last ran. */
    private final ArrayList<UdpRelay> written = new ArrayList<>();

    private final UdpSocketSettings settings;
    private final UdpInput input;
    private final Int2ObjectHashMap<Slot> listeners = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<UdpRelay> relays = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<InetSocketAddress> ipv4Addresses = new Long2ObjectHashMap<>();
    private final Map<TransportAddress, InetSocketAddress> ipv6Addresses = new HashMap<>();
    private final TransportAddress remote = new TransportAddress();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer copyView = new UnsafeBuffer(0, 0);

    NettyUdpSockets(EventLoop loop, EventLoopFlush flush, UdpSocketSettings settings, UdpInput input) {
        this.loop = loop;
        this.flush = flush;
        this.settings = settings;
        this.input = input;
    }

    @Override
    public InetSocketAddress bindListener(int listenerId, InetSocketAddress address) throws IOException {
        // A socket of the address's own family: an IPv4 address on an IPv6 socket would make the
        // kernel and Netty convert every datagram's address to and from its IPv4-mapped form.
        DatagramChannel channel = newChannel(address.getAddress() instanceof java.net.Inet6Address);
        HeadroomRecvByteBufAllocator.configure(
                channel,
                TurnEngine.PEER_PACKET_HEADROOM,
                RelayShard.DATAGRAM_BYTES,
                DATAGRAMS_PER_READ,
                LISTENER_DATAGRAMS_PER_WAKEUP);
        if (NettyTransports.epoll()) {
            channel.config().setOption(EpollChannelOption.SO_REUSEPORT, true);
        }
        channel.pipeline().addLast(new ClientHandler(listenerId));
        if (!registerAndBind(channel, address)) {
            throw new IOException("cannot bind UDP " + address);
        }
        listeners.put(listenerId, new Slot(channel));
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public boolean openRelay(int relayId, TransportAddress address) {
        DatagramChannel channel = newChannel(!address.isIpv4());
        HeadroomRecvByteBufAllocator.configure(
                channel,
                TurnEngine.PEER_PACKET_HEADROOM,
                RelayShard.DATAGRAM_BYTES,
                DATAGRAMS_PER_READ,
                RELAY_DATAGRAMS_PER_WAKEUP);
        channel.pipeline().addLast(new PeerHandler(relayId));
        if (!registerAndBind(channel, address.toInetSocketAddress())) {
            return false;
        }
        relays.put(relayId, new UdpRelay(new Slot(channel)));
        return true;
    }

    private DatagramChannel newChannel(boolean ipv6) {
        DatagramChannel channel = NettyTransports.newDatagramChannel(ipv6);
        settings.apply(channel);
        return channel;
    }

    /** Registers and binds on this loop's own thread, where both complete at once. */
    private boolean registerAndBind(DatagramChannel channel, InetSocketAddress address) {
        ChannelFuture registered = loop.register(channel);
        if (!registered.isDone() || !registered.isSuccess()) {
            channel.close();
            return false;
        }
        ChannelFuture bound = channel.bind(address);
        if (!bound.isDone() || !bound.isSuccess()) {
            channel.close();
            return false;
        }
        return true;
    }

    @Override
    public boolean closeRelay(int relayId) {
        UdpRelay relay = relays.remove(relayId);
        if (relay == null) {
            return false;
        }
        relay.slot.channel().close();
        return true;
    }

    @Override
    public void sendToClient(
            int listenerId, TransportAddress recipient, DirectBuffer bytes, int offset, int length, ByteBuf inPlace) {
        Slot listener = listeners.get(listenerId);
        if (listener != null) {
            send(
                    listener,
                    null,
                    inetAddress(recipient),
                    bytes,
                    offset,
                    length,
                    inPlace,
                    DropReason.CLIENT_BACKPRESSURE);
        }
    }

    @Override
    public void sendToPeer(
            int relayId, TransportAddress recipient, DirectBuffer bytes, int offset, int length, ByteBuf inPlace) {
        UdpRelay relay = relays.get(relayId);
        if (relay != null) {
            send(
                    relay.slot,
                    relay,
                    inetAddress(recipient),
                    bytes,
                    offset,
                    length,
                    inPlace,
                    DropReason.PEER_BACKPRESSURE);
            if (!relay.written) {
                relay.written = true;
                written.add(relay);
            }
        }
    }

    @Override
    public void flushQueued() {
        for (int i = 0; i < written.size(); i++) {
            UdpRelay relay = written.get(i);
            relay.written = false;
            EventLoopFlush.flush(relay.slot);
        }
        written.clear();
    }

    @Override
    public void closeAll() {
        for (Slot listener : listeners.values()) {
            listener.channel().close();
        }
        for (UdpRelay relay : relays.values()) {
            relay.slot.channel().close();
        }
        listeners.clear();
        relays.clear();
        written.clear();
    }

    private void send(
            Slot socket,
            UdpRelay relay,
            InetSocketAddress recipient,
            DirectBuffer bytes,
            int offset,
            int length,
            ByteBuf inPlace,
            DropReason full) {
        if (!flush.writable(socket)) {
            input.drop(full);
            return;
        }
        if (length == 0) {
            // RFC 8656 §12.5: an empty datagram; Netty skips those, so it goes out through the socket itself.
            if (relay == null || !relay.sendEmpty(flush, recipient)) {
                input.drop(full);
            }
            return;
        }
        ByteBuf payload;
        if (inPlace != null) {
            // Relayed data: a slice of what was received, without a copy.
            payload = inPlace.retainedSlice(offset, length);
        } else {
            payload = socket.channel().alloc().directBuffer(length);
            copyView.wrap(payload.memoryAddress(), length);
            copyView.putBytes(0, bytes, offset, length);
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
                    input.drop(DropReason.OVERSIZED);
                    return;
                }
                remote.set(packet.sender());
                view.wrap(content.memoryAddress(), content.capacity());
                input.onClientDatagram(
                        listenerId, remote, content, view, content.readerIndex(), content.readableBytes());
            } finally {
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
                    input.drop(DropReason.OVERSIZED);
                    return;
                }
                ByteBuf base = length <= RelayShard.DATAGRAM_BYTES ? bufferWithHeadroom(content) : null;
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
                remote.set(packet.sender());
                view.wrap(base.memoryAddress(), base.capacity());
                input.onPeerDatagram(relayId, remote, base, view, offset, length);
            } finally {
                packet.release();
                if (copy != null) {
                    copy.release();
                }
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            input.onRelayReadDone(relayId);
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
