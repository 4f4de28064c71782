package io.tern.turn.engine;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters an engine keeps instead of logging per packet. Written by the engine's own thread
 * only; {@link AtomicLongArray} lets a metrics scraper on another thread read whole values.
 */
public final class TurnCounters {
    public static final int DIRECTION_CLIENT_TO_PEER = 0;
    public static final int DIRECTION_PEER_TO_CLIENT = 1;
    private static final int[] METHODS = {
        io.tern.stun.message.StunMethod.BINDING, io.tern.stun.message.StunMethod.ALLOCATE,
        io.tern.stun.message.StunMethod.REFRESH, io.tern.stun.message.StunMethod.CREATE_PERMISSION,
        io.tern.stun.message.StunMethod.CHANNEL_BIND, io.tern.stun.message.StunMethod.SEND,
    };
    private static final int[] ERROR_CODES = {400, 401, 403, 420, 437, 438, 440, 441, 442, 443, 486, 500, 508};
    private static final int PROTOCOLS = TransportProtocol.values().length;

    private final AtomicLongArray packets = new AtomicLongArray(2 * PROTOCOLS);
    private final AtomicLongArray bytes = new AtomicLongArray(2 * PROTOCOLS);
    private final AtomicLongArray requests = new AtomicLongArray(METHODS.length);
    private final AtomicLongArray errors = new AtomicLongArray(ERROR_CODES.length);
    private final AtomicLongArray drops = new AtomicLongArray(DropReason.values().length);
    private final AtomicLongArray activeAllocations = new AtomicLongArray(PROTOCOLS);
    private final AtomicLongArray authFailures = new AtomicLongArray(1);

    public static int[] methods() {
        return METHODS.clone();
    }

    public static int[] errorCodes() {
        return ERROR_CODES.clone();
    }

    void relayed(int direction, TransportProtocol protocol, int payloadBytes) {
        int i = direction * PROTOCOLS + protocol.ordinal();
        packets.lazySet(i, packets.get(i) + 1);
        bytes.lazySet(i, bytes.get(i) + payloadBytes);
    }

    void request(int method) {
        for (int i = 0; i < METHODS.length; i++) {
            if (METHODS[i] == method) {
                requests.lazySet(i, requests.get(i) + 1);
                return;
            }
        }
    }

    void error(int code) {
        for (int i = 0; i < ERROR_CODES.length; i++) {
            if (ERROR_CODES[i] == code) {
                errors.lazySet(i, errors.get(i) + 1);
                return;
            }
        }
    }

    void drop(DropReason reason) {
        drops.lazySet(reason.ordinal(), drops.get(reason.ordinal()) + 1);
    }

    void authFailure() {
        authFailures.lazySet(0, authFailures.get(0) + 1);
    }

    void allocationOpened(TransportProtocol protocol) {
        activeAllocations.lazySet(protocol.ordinal(), activeAllocations.get(protocol.ordinal()) + 1);
    }

    void allocationClosed(TransportProtocol protocol) {
        activeAllocations.lazySet(protocol.ordinal(), activeAllocations.get(protocol.ordinal()) - 1);
    }

    public long relayedPackets(int direction, TransportProtocol protocol) {
        return packets.get(direction * PROTOCOLS + protocol.ordinal());
    }

    public long relayedBytes(int direction, TransportProtocol protocol) {
        return bytes.get(direction * PROTOCOLS + protocol.ordinal());
    }

    public long requests(int method) {
        for (int i = 0; i < METHODS.length; i++) {
            if (METHODS[i] == method) {
                return requests.get(i);
            }
        }
        return 0;
    }

    public long errors(int code) {
        for (int i = 0; i < ERROR_CODES.length; i++) {
            if (ERROR_CODES[i] == code) {
                return errors.get(i);
            }
        }
        return 0;
    }

    public long drops(DropReason reason) {
        return drops.get(reason.ordinal());
    }

    /** Drops counted outside the engine, by the transport (e.g. a full client write queue). */
    public void transportDrop(DropReason reason) {
        drops.incrementAndGet(reason.ordinal());
    }

    public long authFailures() {
        return authFailures.get(0);
    }

    public long activeAllocations(TransportProtocol protocol) {
        return activeAllocations.get(protocol.ordinal());
    }
}
