package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.EventLoopFlush.Slot;
import io.tern.netty.HeadroomRecvByteBufAllocator;
import io.tern.netty.NettyTransports;
import io.tern.netty.stream.ConnectionLimiter;
import io.tern.netty.stream.StreamConnections;
import io.tern.netty.stream.StreamCounters;
import io.tern.netty.stream.StreamHost;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.RequestedTransport;
import io.tern.turn.engine.ClientEndpoint;
import io.tern.turn.engine.Command;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnEngine;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One relay thread: an event loop, the TURN engine it drives, its client-facing UDP listeners, the
 * TCP and TLS connections accepted on its loop, and the relay sockets of its allocations, by relay
 * id. Everything here runs on the loop's thread, so nothing locks.
 *
 * <p>After every input the shard drains the engine's commands and carries them out; the engine's
 * questions (is this port free, did the connect work) come back to it as new inputs once the
 * queue is empty. The loop's timer is armed for the engine's next deadline, never on a fixed tick.
 */
final class RelayShard implements StreamHost {
    private static final int MAX_CACHED_ADDRESSES = 65536;
    /** Largest datagram relayed in place; longer ones are copied first. */
    static final int DATAGRAM_BYTES = 2048;
    /** A datagram this long filled its receive slot and may have been cut short, so it is dropped. */
    private static final int TRUNCATED_BYTES = TurnEngine.PEER_PACKET_HEADROOM + DATAGRAM_BYTES;
    /** 8 slots of 2052 bytes stay within the allocator's pooled buffer sizes. */
    private static final int DATAGRAMS_PER_READ = 8;
    /** The client-facing socket carries every allocation's traffic, so it may read more per wake-up. */
    private static final int LISTENER_DATAGRAMS_PER_WAKEUP = 64;

    private static final int RELAY_DATAGRAMS_PER_WAKEUP = 16;
    /** Timers more than this late are not worth re-arming for; it also caps how long a sleep may be. */
    private static final long TIMER_SLACK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final EventLoop loop;
    private final TransportSettings settings;
    private final TurnEngine engine;
    private final StreamConnections streams;
    private final EventLoopFlush flush;
    private final TurnClock clock;
    private final TcpRelays tcp;
    private final Int2ObjectHashMap<Slot> listeners = new Int2ObjectHashMap<>();
    private final List<Channel> streamListeners = new ArrayList<>();
    private final Int2ObjectHashMap<UdpRelay> udpRelays = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<InetSocketAddress> ipv4Addresses = new Long2ObjectHashMap<>();
    private final Map<TransportAddress, InetSocketAddress> ipv6Addresses = new HashMap<>();
    private final ClientEndpoint endpoint = new ClientEndpoint();
    private final TransportAddress remote = new TransportAddress();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer copyView = new UnsafeBuffer(0, 0);
    private final Runnable onTimer = this::onTimer;
    /** Answers to OPEN_RELAY and CONNECT_PEER, fed to the engine once its queue is empty: kind, relay id, ok. */
    private int[] answers = new int[3 * 16];

    private int answerCount;
    private boolean draining;
    /** The buffer of the input being handled: in-place commands refer to it. */
    private ByteBuf inbound;

    /** Every relay thread of the server, by shard index, for connections handed from one to another. */
    private List<RelayShard> shards = List.of();

    private ScheduledFuture<?> timer;
    private long timerDeadlineNs = Long.MAX_VALUE;

    /**
     * @param index  this relay thread's place among {@code shards} threads
     */
    RelayShard(
            EventLoop loop,
            TransportSettings settings,
            ConnectionLimiter limiter,
            StreamCounters streamCounters,
            int index,
            int shards) {
        this.loop = loop;
        this.settings = settings;
        this.flush = new EventLoopFlush(loop);
        this.clock = new TurnClock(loop);
        this.engine = new TurnEngine(
                settings.engineConfig(),
                settings.shared(),
                settings.wallClock(),
                new SplittableRandom(new SecureRandom().nextLong()),
                System.nanoTime(),
                index,
                shards);
        this.streams = new StreamConnections(
                loop, flush, this, engine.counters(), settings.streams(), limiter, streamCounters);
        this.tcp = new TcpRelays(this, loop, settings.streams());
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

    @Override
    public long nowNs() {
        return clock.nowNs();
    }

    void addListener(DatagramChannel channel, int listenerId) {
        HeadroomRecvByteBufAllocator.configure(
                channel,
                TurnEngine.PEER_PACKET_HEADROOM,
                DATAGRAM_BYTES,
                DATAGRAMS_PER_READ,
                LISTENER_DATAGRAMS_PER_WAKEUP);
        settings.sockets().apply(channel);
        listeners.put(listenerId, new Slot(channel));
        engine.registerListener(listenerId, TransportProtocol.UDP);
        channel.pipeline().addLast(new ClientHandler(listenerId));
    }

    /** A TCP or TLS server channel bound on this loop; its connections are this shard's. */
    void addStreamListener(Channel serverChannel, int listenerId, TransportProtocol protocol) {
        streamListeners.add(serverChannel);
        engine.registerListener(listenerId, protocol);
    }

    void shards(List<RelayShard> all) {
        this.shards = List.copyOf(all);
    }

    /** Starts the timers; call once the shard is set up. */
    void start() {
        drain();
    }

    void close() {
        for (Channel listener : streamListeners) {
            listener.close();
        }
        streams.closeAll();
        engine.close();
        drain();
        for (Slot listener : listeners.values()) {
            listener.channel().close();
        }
        tcp.closeAll();
        if (timer != null) {
            timer.cancel(false);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Time

    private void onTimer() {
        timer = null;
        timerDeadlineNs = Long.MAX_VALUE;
        long nowNs = clock.nowNs();
        engine.onTimeout(nowNs);
        streams.onTimer(nowNs);
        drain();
    }

    /** Arms the loop's timer for the earliest deadline of the engine and the stream connections. */
    private void armTimer() {
        long deadlineNs = Math.min(engine.nextDeadlineNs(), streams.nextDeadlineNs());
        if (deadlineNs == Long.MAX_VALUE || deadlineNs >= timerDeadlineNs - TIMER_SLACK_NS) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timerDeadlineNs = deadlineNs;
        timer = loop.schedule(onTimer, Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    // ---------------------------------------------------------------------------------------------
    // Draining the engine

    /** Carries out every queued command, then feeds the engine the answers they produced, until none is left. */
    void drain() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            while (true) {
                for (Command c = engine.poll(); c != null; c = engine.poll()) {
                    execute(c);
                }
                if (answerCount == 0) {
                    break;
                }
                int count = answerCount;
                answerCount = 0;
                int[] batch = answers.clone();
                long nowNs = clock.nowNs();
                for (int i = 0; i < count; i++) {
                    int kind = batch[3 * i];
                    int relayId = batch[3 * i + 1];
                    boolean ok = batch[3 * i + 2] != 0;
                    if (kind == Command.OPEN_RELAY) {
                        engine.onRelayOpened(relayId, ok, nowNs);
                    } else {
                        engine.onPeerConnected(relayId, ok, nowNs);
                    }
                }
            }
        } finally {
            draining = false;
        }
        armTimer();
    }

    /** An asynchronous answer from a socket operation; fed to the engine as a new input. */
    void answer(int kind, int relayId, boolean ok) {
        if (3 * answerCount + 3 > answers.length) {
            answers = java.util.Arrays.copyOf(answers, answers.length * 2);
        }
        answers[3 * answerCount] = kind;
        answers[3 * answerCount + 1] = relayId;
        answers[3 * answerCount + 2] = ok ? 1 : 0;
        answerCount++;
        drain();
    }

    private void execute(Command c) {
        switch (c.kind()) {
            case Command.SEND_TO_CLIENT -> sendToClient(c);
            case Command.SEND_TO_PEER -> {
                UdpRelay relay = udpRelays.get(c.relayId());
                if (relay != null) {
                    send(relay.slot, relay, inetAddress(c.address()), c, DropReason.PEER_BACKPRESSURE);
                }
            }
            case Command.OPEN_RELAY -> {
                if (c.relayProtocol() == RequestedTransport.TCP) {
                    tcp.openListener(c.relayId(), c.address());
                } else {
                    answer(Command.OPEN_RELAY, c.relayId(), openUdp(c.relayId(), c.address()));
                }
            }
            case Command.CLOSE_RELAY -> {
                UdpRelay relay = udpRelays.remove(c.relayId());
                if (relay != null) {
                    relay.slot.channel().close();
                } else {
                    tcp.close(c.relayId());
                }
            }
            case Command.CONNECT_PEER -> tcp.connect(c.relayId(), c.parentRelayId(), c.address());
            case Command.BIND_CONNECTION -> tcp.bind(c.relayId(), c.client().connectionId());
            case Command.MIGRATE_CONNECTION ->
                streams.migrate(c.client().connectionId(), c.targetShard(), c.buffer(), c.offset(), c.length());
            default -> throw new IllegalStateException("unknown command " + c);
        }
    }

    private void sendToClient(Command c) {
        ClientEndpoint client = c.client();
        if (client.isStream()) {
            streams.send(client.connectionId(), c.buffer(), c.offset(), c.length());
            return;
        }
        Slot listener = listeners.get(client.listenerId());
        if (listener != null) {
            send(listener, null, inetAddress(client.address()), c, DropReason.CLIENT_BACKPRESSURE);
        }
    }

    private void send(Slot socket, UdpRelay relay, InetSocketAddress recipient, Command c, DropReason full) {
        if (!flush.writable(socket)) {
            engine.counters().drop(full);
            return;
        }
        int length = c.length();
        if (length == 0) {
            // RFC 8656 §12.5: an empty datagram; Netty skips those, so it goes out through the socket itself.
            if (relay == null || !relay.sendEmpty(flush, recipient)) {
                engine.counters().drop(full);
            }
            return;
        }
        ByteBuf payload;
        if (c.inPlace() && inbound != null) {
            // Relayed data: a slice of what was received, without a copy.
            payload = inbound.retainedSlice(c.offset(), length);
        } else {
            payload = socket.channel().alloc().directBuffer(length);
            copyView.wrap(payload.memoryAddress(), length);
            copyView.putBytes(0, c.buffer(), c.offset(), length);
            payload.writerIndex(length);
        }
        flush.write(socket, new DatagramPacket(payload, recipient));
    }

    InetSocketAddress inetAddress(TransportAddress address) {
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

    /** Binds a UDP relay socket on this loop; false when the port is taken. */
    private boolean openUdp(int relayId, TransportAddress address) {
        DatagramChannel channel = NettyTransports.newDatagramChannel(!address.isIpv4());
        HeadroomRecvByteBufAllocator.configure(
                channel,
                TurnEngine.PEER_PACKET_HEADROOM,
                DATAGRAM_BYTES,
                DATAGRAMS_PER_READ,
                RELAY_DATAGRAMS_PER_WAKEUP);
        settings.sockets().apply(channel);
        channel.pipeline().addLast(new PeerHandler(relayId));
        ChannelFuture registered = loop.register(channel);
        if (!registered.isDone() || !registered.isSuccess()) {
            channel.close();
            return false;
        }
        ChannelFuture bound = channel.bind(address.toInetSocketAddress());
        if (!bound.isDone() || !bound.isSuccess()) {
            channel.close();
            return false;
        }
        udpRelays.put(relayId, new UdpRelay(new Slot(channel)));
        return true;
    }

    // ---------------------------------------------------------------------------------------------
    // Inputs

    @Override
    public void onStreamMessage(
            int listenerId, long connectionId, TransportAddress client, ByteBuf buffer, int index, int length) {
        try {
            inbound = buffer;
            engine.onClientMessage(
                    endpoint.set(listenerId, connectionId, client), wrap(buffer), index, length, clock.nowNs());
            drain();
        } finally {
            inbound = null;
        }
    }

    @Override
    public void onStreamClosed(int listenerId, long connectionId, TransportAddress client) {
        engine.onClientConnectionClosed(connectionId, clock.nowNs());
        drain();
    }

    @Override
    public void handOver(
            int targetShard,
            Channel channel,
            int listenerId,
            TransportProtocol protocol,
            InetSocketAddress remote,
            ByteBuf replay) {
        RelayShard target = targetShard < shards.size() ? shards.get(targetShard) : null;
        if (target == null) {
            replay.release();
            channel.close();
            return;
        }
        target.loop.execute(() -> target.streams.adopt(channel, listenerId, protocol, remote, replay));
    }

    @Override
    public boolean hasAllocation(int listenerId, long connectionId, TransportAddress client) {
        return engine.holdsConnection(connectionId);
    }

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
                    engine.counters().drop(DropReason.OVERSIZED);
                    return;
                }
                inbound = content;
                remote.set(packet.sender());
                engine.onClientMessage(
                        endpoint.set(listenerId, ClientEndpoint.NO_CONNECTION, remote),
                        wrap(content),
                        content.readerIndex(),
                        content.readableBytes(),
                        clock.nowNs());
                drain();
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
                    engine.counters().drop(DropReason.OVERSIZED);
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
                engine.onPeerDatagram(relayId, remote, view, offset, length, clock.nowNs());
                drain();
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
