package io.tern.turn.engine;

import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunMethod;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters an engine keeps instead of logging per packet. Written by the engine's own thread
 * (the engine, its handlers, and its transport on the same event loop) only;
 * {@link AtomicLongArray} lets a metrics scraper on another thread read whole values.
 */
public final class TurnCounters {
    public static final int DIRECTION_CLIENT_TO_PEER = 0;
    public static final int DIRECTION_PEER_TO_CLIENT = 1;
    private static final int[] METHODS = {
        StunMethod.BINDING,
        StunMethod.ALLOCATE,
        StunMethod.REFRESH,
        StunMethod.CREATE_PERMISSION,
        StunMethod.CHANNEL_BIND,
        StunMethod.SEND,
        StunMethod.CONNECT,
        StunMethod.CONNECTION_BIND,
    };
    private static final int[] ERROR_CODES = ErrorCode.codes();
    private static final int PROTOCOLS = TransportProtocol.values().length;

    private final AtomicLongArray packets = new AtomicLongArray(2 * PROTOCOLS);
    private final AtomicLongArray bytes = new AtomicLongArray(2 * PROTOCOLS);
    private final AtomicLongArray requests = new AtomicLongArray(METHODS.length);
    private final AtomicLongArray errors = new AtomicLongArray(ERROR_CODES.length);
    private final AtomicLongArray drops = new AtomicLongArray(DropReason.values().length);
    private final AtomicLongArray activeAllocations = new AtomicLongArray(PROTOCOLS);
    private final AtomicLongArray authFailures = new AtomicLongArray(1);
    /** Allocates the fleet refused (its quota spent), and those decided without it (its store unreachable). */
    private final AtomicLongArray leases = new AtomicLongArray(2);

    public static int[] methods() {
        return METHODS.clone();
    }

    public static int[] errorCodes() {
        return ERROR_CODES.clone();
    }

    /** Application data relayed for a client of {@code protocol}: one packet, or one read of a TCP relay. */
    public void relayed(int direction, TransportProtocol protocol, int payloadBytes) {
        int i = direction * PROTOCOLS + protocol.ordinal();
        packets.lazySet(i, packets.get(i) + 1);
        bytes.lazySet(i, bytes.get(i) + payloadBytes);
    }

    public void request(int method) {
        for (int i = 0; i < METHODS.length; i++) {
            if (METHODS[i] == method) {
                requests.lazySet(i, requests.get(i) + 1);
                return;
            }
        }
    }

    public void error(int code) {
        for (int i = 0; i < ERROR_CODES.length; i++) {
            if (ERROR_CODES[i] == code) {
                errors.lazySet(i, errors.get(i) + 1);
                return;
            }
        }
    }

    public void drop(DropReason reason) {
        drops.lazySet(reason.ordinal(), drops.get(reason.ordinal()) + 1);
    }

    public void authFailure() {
        authFailures.lazySet(0, authFailures.get(0) + 1);
    }

    /** An Allocate refused because a cluster-wide quota is spent. */
    public void leaseRefused() {
        leases.lazySet(0, leases.get(0) + 1);
    }

    /** An Allocate whose lease the fleet could not decide (granted on local quotas, or refused failing closed). */
    public void leaseUnavailable() {
        leases.lazySet(1, leases.get(1) + 1);
    }

    public long leaseRefusals() {
        return leases.get(0);
    }

    public long leasesUndecided() {
        return leases.get(1);
    }

    public void allocationOpened(TransportProtocol protocol) {
        activeAllocations.lazySet(protocol.ordinal(), activeAllocations.get(protocol.ordinal()) + 1);
    }

    public void allocationClosed(TransportProtocol protocol) {
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

    public long authFailures() {
        return authFailures.get(0);
    }

    public long activeAllocations(TransportProtocol protocol) {
        return activeAllocations.get(protocol.ordinal());
    }
}
