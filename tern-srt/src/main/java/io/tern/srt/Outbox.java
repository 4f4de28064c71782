package io.tern.srt;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;

/**
 * The engine's queued outputs: datagrams to send, payloads to deliver, and events. Fixed rings of
 * pooled arrays, so a steady stream allocates nothing; a full ring drops and counts rather than
 * grows (the owner is not draining).
 */
final class Outbox {
    static final int DATAGRAM_BYTES = 1500;

    private final byte[][] tx;
    private final int[] txLength;
    private final InetSocketAddress[] txRemote;
    private int txHead;
    private int txCount;

    private final byte[][] rx;
    private final int[] rxLength;
    private final long[] rxSession;
    private int rxHead;
    private int rxCount;

    private final ArrayDeque<SrtEvent> events = new ArrayDeque<>();

    long transmitsDropped;
    long deliveriesDropped;

    Outbox(int transmitSlots, int deliverySlots) {
        tx = new byte[transmitSlots][];
        txLength = new int[transmitSlots];
        txRemote = new InetSocketAddress[transmitSlots];
        rx = new byte[deliverySlots][];
        rxLength = new int[deliverySlots];
        rxSession = new long[deliverySlots];
    }

    /** An array to write the next datagram into, or null when the ring is full. */
    byte[] claim() {
        if (txCount == tx.length) {
            transmitsDropped++;
            return null;
        }
        int slot = (txHead + txCount) % tx.length;
        byte[] b = tx[slot];
        if (b == null) {
            b = tx[slot] = new byte[DATAGRAM_BYTES];
        }
        return b;
    }

    /** Queues the datagram written into the array {@link #claim} returned. */
    void commit(int length, InetSocketAddress remote) {
        int slot = (txHead + txCount) % tx.length;
        txLength[slot] = length;
        txRemote[slot] = remote;
        txCount++;
    }

    void send(byte[] b, int off, int length, InetSocketAddress remote) {
        byte[] dst = claim();
        if (dst != null) {
            System.arraycopy(b, off, dst, 0, length);
            commit(length, remote);
        }
    }

    boolean poll(Transmit t) {
        if (txCount == 0) {
            return false;
        }
        t.data = tx[txHead];
        t.length = txLength[txHead];
        t.remote = txRemote[txHead];
        txRemote[txHead] = null;
        txHead = (txHead + 1) % tx.length;
        txCount--;
        return true;
    }

    /** Queues {@code payload} for delivery and returns an empty array to take its place. */
    byte[] deliver(long sessionId, byte[] payload, int length) {
        if (rxCount == rx.length) {
            deliveriesDropped++;
            return payload;
        }
        int slot = (rxHead + rxCount) % rx.length;
        byte[] spare = rx[slot];
        rx[slot] = payload;
        rxLength[slot] = length;
        rxSession[slot] = sessionId;
        rxCount++;
        return spare != null ? spare : new byte[payload.length];
    }

    boolean poll(Delivery d) {
        if (rxCount == 0) {
            return false;
        }
        d.data = rx[rxHead];
        d.length = rxLength[rxHead];
        d.sessionId = rxSession[rxHead];
        rxHead = (rxHead + 1) % rx.length;
        rxCount--;
        return true;
    }

    void event(SrtEvent e) {
        events.add(e);
    }

    SrtEvent pollEvent() {
        return events.poll();
    }

    boolean idle() {
        return txCount == 0 && rxCount == 0 && events.isEmpty();
    }
}
