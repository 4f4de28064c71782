package io.tern.srt;

import java.util.random.RandomGenerator;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * What the listener and the caller share: the session table (keyed by this side's socket id, the
 * destination of every packet after the handshake), the output queues, and the drain methods.
 *
 * <p>Use: after every {@code onDatagram} or {@code onTimeout}, drain {@link #pollTransmit}, {@link
 * #pollDelivery} and {@link #pollEvent} until each is empty, then arm a timer for {@link
 * #nextDeadlineNs}. Nothing calls back into the owner.
 */
public abstract class SrtEndpoint {
    protected final SrtSettings settings;
    protected final RandomGenerator random;
    final Outbox out;
    final Int2ObjectHashMap<SrtConnection> sessions = new Int2ObjectHashMap<>();

    /** Counters of datagrams that were dropped without an answer. */
    long droppedMalformed;

    long droppedOversized;
    long droppedUnknownSocket;

    protected SrtEndpoint(SrtSettings settings, RandomGenerator random, int transmitSlots, int deliverySlots) {
        this.settings = settings;
        this.random = random;
        this.out = new Outbox(transmitSlots, deliverySlots);
    }

    public boolean pollTransmit(Transmit t) {
        return out.poll(t);
    }

    public boolean pollDelivery(Delivery d) {
        return out.poll(d);
    }

    public SrtEvent pollEvent() {
        return out.pollEvent();
    }

    public void onTimeout(long nowNs) {
        var it = sessions.values().iterator();
        while (it.hasNext()) {
            SrtConnection c = it.next();
            c.onTimer(nowNs);
            if (c.closed()) {
                it.remove();
                removed(c);
            }
        }
    }

    /** The earliest time {@link #onTimeout} has work, or {@code Long.MAX_VALUE}. */
    public long nextDeadlineNs() {
        long deadlineNs = Long.MAX_VALUE;
        for (SrtConnection c : sessions.values()) {
            deadlineNs = Math.min(deadlineNs, c.nextDeadlineNs());
        }
        return Math.min(deadlineNs, handshakeDeadlineNs());
    }

    long handshakeDeadlineNs() {
        return Long.MAX_VALUE;
    }

    void removed(SrtConnection c) {}

    /** Sends a payload on a session (one data packet; at most 1456 bytes). */
    public void send(long sessionId, byte[] payload, int off, int len, long nowNs) {
        SrtConnection c = sessions.get((int) sessionId);
        if (c != null) {
            c.send(payload, off, len, nowNs);
        }
    }

    /** Closes a session: SHUTDOWN to the peer, then a {@link SrtEvent.Closed} event. */
    public void close(long sessionId, long nowNs) {
        SrtConnection c = sessions.remove((int) sessionId);
        if (c != null) {
            c.setNowNs(nowNs);
            c.close(SrtEvent.CloseReason.LOCAL, true);
            removed(c);
        }
    }

    public SrtStats stats(long sessionId) {
        SrtConnection c = sessions.get((int) sessionId);
        return c == null ? null : c.stats();
    }

    public int sessionCount() {
        return sessions.size();
    }

    public long transmitsDropped() {
        return out.transmitsDropped;
    }

    public long deliveriesDropped() {
        return out.deliveriesDropped;
    }

    public long droppedMalformed() {
        return droppedMalformed;
    }

    public long droppedOversized() {
        return droppedOversized;
    }

    public long droppedUnknownSocket() {
        return droppedUnknownSocket;
    }

    int newSocketId() {
        int id;
        do {
            id = random.nextInt() & 0x3FFF_FFFF;
        } while (id == 0 || sessions.containsKey(id));
        return id;
    }
}
