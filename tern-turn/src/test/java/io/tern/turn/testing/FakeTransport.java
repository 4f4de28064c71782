package io.tern.turn.testing;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.RequestedTransport;
import io.tern.turn.engine.ClientEndpoint;
import io.tern.turn.engine.Command;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.quota.LeaseDecision;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.agrona.DirectBuffer;

/**
 * A transport in memory: drains the engine's commands after every input, as the real one does,
 * records what would have been sent, keeps relay "sockets" as ids, and answers OPEN_RELAY and
 * CONNECT_PEER as new inputs once the queue is empty. Ports in {@link #refusedPorts} behave as
 * taken by another process.
 */
public final class FakeTransport {
    /** A message for a client; {@code buffer} and {@code offset} are kept to check zero-copy paths. */
    public record ToClient(ClientEndpoint client, byte[] bytes, boolean inPlace, DirectBuffer buffer, int offset) {
        public int listenerId() {
            return client.listenerId();
        }

        public long connectionId() {
            return client.connectionId();
        }

        public TransportAddress address() {
            return client.address();
        }
    }

    /** Data for a peer; {@code buffer} and {@code offset} are kept to check zero-copy paths. */
    public record ToPeer(
            int relayId, TransportAddress peer, byte[] bytes, boolean inPlace, DirectBuffer buffer, int offset) {}

    /** What CONNECT_PEER does: connect at once, fail at once, or wait for {@link #completeConnect}. */
    public enum ConnectOutcome {
        SUCCEED,
        FAIL,
        WAIT
    }

    public final List<ToClient> toClient = new ArrayList<>();
    public final List<ToPeer> toPeer = new ArrayList<>();
    /** Open relay sockets (UDP, or TCP listeners) by relay id. */
    public final Map<Integer, TransportAddress> open = new LinkedHashMap<>();
    /** The relay protocol of each socket in {@link #open}. */
    public final Map<Integer, Integer> protocols = new LinkedHashMap<>();
    /** Peer TCP connections by relay id: connecting, connected, or bound. */
    public final Map<Integer, TransportAddress> peerConnections = new LinkedHashMap<>();
    /** Data connection id bound to each peer connection. */
    public final Map<Integer, Long> bindings = new LinkedHashMap<>();
    /** A client connection the engine sent to another relay thread, with the message to handle there. */
    public record Migration(long connectionId, int targetShard, byte[] message) {}

    public final List<Migration> migrations = new ArrayList<>();
    /** CONNECT_PEER commands, in order: relay id of the new connection. */
    public final List<Integer> connects = new ArrayList<>();

    public final List<TransportAddress> openedHistory = new ArrayList<>();
    public final List<Integer> closed = new ArrayList<>();
    public final Set<Integer> refusedPorts = new HashSet<>();
    public final List<Integer> refusals = new ArrayList<>();
    public ConnectOutcome connectOutcome = ConnectOutcome.SUCCEED;
    /** ACQUIRE_LEASE commands, in order: lease id to user. */
    public final Map<Long, String> leaseRequests = new LinkedHashMap<>();
    /** RELEASE_LEASE commands, in order. */
    public final List<Long> releasedLeases = new ArrayList<>();
    /**
     * How the fake fleet answers ACQUIRE_LEASE, by user, as soon as the queue is drained; null (the
     * default) holds every lease undecided until {@link #decideLease}.
     */
    public Function<String, LeaseDecision> leaseAnswer;

    /** Closes of an id no socket had. */
    public int badCloses;
    /** Record the bytes of every message (off for benchmarks, which only count). */
    public boolean capture = true;

    public long sentToClient;
    public long sentToPeer;
    public long bytesSent;

    private final List<long[]> answers = new ArrayList<>();
    private TurnEngine engine;
    private long nowNs;

    void attach(TurnEngine engine) {
        this.engine = engine;
    }

    /** Drains the engine, then feeds it the answers the commands called for, until nothing is left. */
    public void drain(long nowNs) {
        this.nowNs = nowNs;
        while (true) {
            for (Command c = engine.poll(); c != null; c = engine.poll()) {
                execute(c);
            }
            if (answers.isEmpty()) {
                return;
            }
            List<long[]> pending = new ArrayList<>(answers);
            answers.clear();
            for (long[] answer : pending) {
                if (answer[0] == Command.ACQUIRE_LEASE) {
                    engine.onLeaseDecided(answer[1], LeaseDecision.values()[(int) answer[2]], nowNs);
                } else if (answer[0] == Command.OPEN_RELAY) {
                    engine.onRelayOpened((int) answer[1], answer[2] != 0, nowNs);
                } else {
                    engine.onPeerConnected((int) answer[1], answer[2] != 0, nowNs);
                }
            }
        }
    }

    /** Answers an ACQUIRE_LEASE held back (no {@link #leaseAnswer}), as the fleet would later. */
    public void decideLease(long leaseId, LeaseDecision decision) {
        engine.onLeaseDecided(leaseId, decision, nowNs);
        drain(nowNs);
    }

    /** Answers a CONNECT_PEER held back by {@link ConnectOutcome#WAIT}. */
    public void completeConnect(int relayId, boolean connected) {
        engine.onPeerConnected(relayId, connected, nowNs);
        drain(nowNs);
    }

    private void execute(Command c) {
        switch (c.kind()) {
            case Command.SEND_TO_CLIENT -> {
                sentToClient++;
                bytesSent += c.length();
                if (capture) {
                    toClient.add(new ToClient(
                            new ClientEndpoint().set(c.client()), bytes(c), c.inPlace(), c.buffer(), c.offset()));
                }
            }
            case Command.SEND_TO_PEER -> {
                sentToPeer++;
                bytesSent += c.length();
                if (capture) {
                    toPeer.add(
                            new ToPeer(c.relayId(), c.address().copy(), bytes(c), c.inPlace(), c.buffer(), c.offset()));
                }
            }
            case Command.OPEN_RELAY -> open(c);
            case Command.CLOSE_RELAY -> {
                closed.add(c.relayId());
                if (open.remove(c.relayId()) == null && peerConnections.remove(c.relayId()) == null) {
                    badCloses++;
                }
                protocols.remove(c.relayId());
                bindings.remove(c.relayId());
            }
            case Command.CONNECT_PEER -> {
                connects.add(c.relayId());
                peerConnections.put(c.relayId(), c.address().copy());
                if (connectOutcome != ConnectOutcome.WAIT) {
                    answers.add(new long[] {
                        Command.CONNECT_PEER, c.relayId(), connectOutcome == ConnectOutcome.SUCCEED ? 1 : 0
                    });
                }
            }
            case Command.BIND_CONNECTION -> bindings.put(c.relayId(), c.client().connectionId());
            case Command.MIGRATE_CONNECTION ->
                migrations.add(new Migration(c.client().connectionId(), c.targetShard(), bytes(c)));
            case Command.ACQUIRE_LEASE -> {
                leaseRequests.put(c.leaseId(), c.user());
                if (leaseAnswer != null) {
                    answers.add(new long[] {
                        Command.ACQUIRE_LEASE,
                        c.leaseId(),
                        leaseAnswer.apply(c.user()).ordinal()
                    });
                }
            }
            case Command.RELEASE_LEASE -> releasedLeases.add(c.leaseId());
            default -> throw new AssertionError("unknown command " + c);
        }
    }

    private void open(Command c) {
        TransportAddress address = c.address().copy();
        if (refusedPorts.contains(address.port())) {
            refusals.add(address.port());
            answers.add(new long[] {Command.OPEN_RELAY, c.relayId(), 0});
            return;
        }
        for (Map.Entry<Integer, TransportAddress> e : open.entrySet()) {
            if (e.getValue().equals(address) && protocols.get(e.getKey()) == c.relayProtocol()) {
                throw new AssertionError("engine bound " + address + " twice");
            }
        }
        open.put(c.relayId(), address);
        protocols.put(c.relayId(), c.relayProtocol());
        openedHistory.add(address);
        answers.add(new long[] {Command.OPEN_RELAY, c.relayId(), 1});
    }

    private static byte[] bytes(Command c) {
        byte[] bytes = new byte[c.length()];
        c.buffer().getBytes(c.offset(), bytes);
        return bytes;
    }

    public List<ToPeer> takePeer() {
        List<ToPeer> taken = new ArrayList<>(toPeer);
        toPeer.clear();
        return taken;
    }

    public void clear() {
        toClient.clear();
        toPeer.clear();
    }

    public TransportAddress address(int relayId) {
        return open.get(relayId);
    }

    /** The id of the open socket bound to this address, or -1. */
    public int idOf(TransportAddress address) {
        for (Map.Entry<Integer, TransportAddress> e : open.entrySet()) {
            if (e.getValue().equals(address)) {
                return e.getKey();
            }
        }
        return -1;
    }

    /** Whether relay socket {@code relayId} is a TCP listener. */
    public boolean isTcp(int relayId) {
        Integer protocol = protocols.get(relayId);
        return protocol != null && protocol == RequestedTransport.TCP;
    }
}
