package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.loop.EngineLoop;
import io.tern.netty.loop.LoopClock;
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
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One relay thread: an event loop, the TURN engine it drives, its client-facing UDP listeners, the
 * TCP and TLS connections accepted on its loop, and the relay sockets of its allocations, by relay
 * id. Everything here runs on the loop's thread, so nothing locks.
 *
 * <p>After every input the shard drains the engine's commands and carries them out; the engine's
 * questions (is this port free, did the connect work) come back to it as new inputs once the
 * queue is empty. The shard's {@link EngineLoop} arms the loop's timer for the engine's next
 * deadline, never on a fixed tick.
 */
final class RelayShard implements StreamHost, UdpInput, EngineLoop.Driver {
    /** Largest datagram relayed in place; longer ones are copied first. */
    static final int DATAGRAM_BYTES = 2048;

    private final EventLoop loop;
    private final TransportSettings settings;
    private final TurnEngine engine;
    private final StreamConnections streams;
    private final EventLoopFlush flush;
    private final LoopClock clock;
    private final EngineLoop engineLoop;
    private final TcpRelays tcp;
    private final UdpSockets udp;
    private final List<Channel> streamListeners = new ArrayList<>();
    private final ClientEndpoint endpoint = new ClientEndpoint();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    /** Answers to OPEN_RELAY and CONNECT_PEER, fed to the engine once its queue is empty: kind, relay id, ok. */
    private int[] answers = new int[3 * 16];

    private int answerCount;
    /** The buffer of the input being handled: in-place commands refer to it. */
    private ByteBuf inbound;

    /** Every relay thread of the server, by shard index, for connections handed from one to another. */
    private List<RelayShard> shards = List.of();

    /**
     * @param index  this relay thread's place among {@code shards} threads
     */
    RelayShard(
            EventLoop loop,
            TransportSettings settings,
            ConnectionLimiter limiter,
            StreamCounters streamCounters,
            int index,
            int shards,
            UdpIo udpIo) {
        this.loop = loop;
        this.settings = settings;
        this.flush = new EventLoopFlush(loop);
        this.clock = new LoopClock(loop);
        this.engineLoop = new EngineLoop(clock, this);
        this.engine = new TurnEngine(
                settings.engineConfig(),
                settings.shared(),
                settings.wallClock(),
                new SplittableRandom(new SecureRandom().nextLong()),
                loop.ticker().nanoTime(),
                index,
                shards);
        this.streams = new StreamConnections(
                loop, flush, this, engine.counters(), settings.streams(), limiter, streamCounters);
        this.tcp = new TcpRelays(this, loop, settings.streams());
        this.udp = udpIo.newSockets(loop, flush, settings.sockets(), this);
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

    /** Binds a client-facing UDP listener of this shard; returns where it is bound. */
    InetSocketAddress bindUdpListener(int listenerId, InetSocketAddress address) throws IOException {
        InetSocketAddress bound = udp.bindListener(listenerId, address);
        engine.registerListener(listenerId, TransportProtocol.UDP);
        return bound;
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
        engineLoop.close();
        udp.closeAll();
        tcp.closeAll();
    }

    // ---------------------------------------------------------------------------------------------
    // Draining the engine

    /** After an input: carries out the engine's commands and arms the timer (see {@link EngineLoop}). */
    void drain() {
        engineLoop.drain();
    }

    @Override
    public void onTimeout(long nowNs) {
        engine.onTimeout(nowNs);
        streams.onTimer(nowNs);
    }

    /**
     * Carries out every queued command, then feeds the engine the answers they produced, until none
     * is left; the next deadline is the earlier of the engine's and the stream connections'.
     */
    @Override
    public long drainOutputs() {
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
        return Math.min(engine.nextDeadlineNs(), streams.nextDeadlineNs());
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
            case Command.SEND_TO_PEER ->
                udp.sendToPeer(c.relayId(), c.address(), c.buffer(), c.offset(), c.length(), inPlaceSource(c));
            case Command.OPEN_RELAY -> {
                if (c.relayProtocol() == RequestedTransport.TCP) {
                    tcp.openListener(c.relayId(), c.address());
                } else {
                    answer(Command.OPEN_RELAY, c.relayId(), udp.openRelay(c.relayId(), c.address()));
                }
            }
            case Command.CLOSE_RELAY -> {
                if (!udp.closeRelay(c.relayId())) {
                    tcp.close(c.relayId());
                }
            }
            case Command.CONNECT_PEER -> tcp.connect(c.relayId(), c.parentRelayId(), c.address());
            case Command.BIND_CONNECTION -> tcp.bind(c.relayId(), c.client().connectionId());
            case Command.MIGRATE_CONNECTION ->
                streams.migrate(c.client().connectionId(), c.targetShard(), c.buffer(), c.offset(), c.length());
            case Command.ACQUIRE_LEASE -> acquireLease(c.leaseId(), c.user());
            case Command.RELEASE_LEASE -> settings.leases().release(c.leaseId(), c.user());
            default -> throw new IllegalStateException("unknown command " + c);
        }
    }

    /** Asks the fleet; its answer, from whichever thread, comes back to this loop as a new engine input. */
    private void acquireLease(long leaseId, String user) {
        settings.leases()
                .acquire(
                        leaseId,
                        user,
                        decision -> loop.execute(() -> {
                            engine.onLeaseDecided(leaseId, decision, clock.nowNs());
                            drain();
                        }));
    }

    private void sendToClient(Command c) {
        ClientEndpoint client = c.client();
        if (client.isStream()) {
            streams.send(client.connectionId(), c.buffer(), c.offset(), c.length());
        } else {
            udp.sendToClient(
                    client.listenerId(), client.address(), c.buffer(), c.offset(), c.length(), inPlaceSource(c));
        }
    }

    /** The buffer an in-place command's bytes lie in, or null when they must be copied. */
    private ByteBuf inPlaceSource(Command c) {
        return c.inPlace() ? inbound : null;
    }

    // ---------------------------------------------------------------------------------------------
    // Inputs

    @Override
    public void onClientDatagram(
            int listenerId, TransportAddress sender, ByteBuf buffer, MutableDirectBuffer data, int offset, int length) {
        try {
            inbound = buffer;
            engine.onClientMessage(
                    endpoint.set(listenerId, ClientEndpoint.NO_CONNECTION, sender),
                    data,
                    offset,
                    length,
                    clock.nowNs());
            drain();
        } finally {
            inbound = null;
        }
    }

    @Override
    public void onPeerDatagram(
            int relayId, TransportAddress sender, ByteBuf buffer, MutableDirectBuffer data, int offset, int length) {
        try {
            inbound = buffer;
            engine.onPeerDatagram(relayId, sender, data, offset, length, clock.nowNs());
            drain();
        } finally {
            inbound = null;
        }
    }

    /**
     * A relay socket's read is done: what it made for TCP clients leaves now (TLS clients: see StreamConnection), so that the
     * client (often the load on the machine's other core) has it while this thread reads its
     * other sockets. Each such client is fed by this socket alone, so it is not written again in
     * this turn and still gets one write.
     */
    @Override
    public void onRelayReadDone(int relayId) {
        streams.flushWritten();
    }

    /** A TCP client's read is done (TLS keeps the end-of-turn flush): its datagrams for its relay socket leave now, likewise. */
    @Override
    public void onStreamReadDone() {
        udp.flushQueued();
    }

    @Override
    public void drop(DropReason reason) {
        engine.counters().drop(reason);
    }

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
}
