package io.tern.server.origin.metrics;

import io.tern.srt.SrtStats;
import io.tern.srt.handshake.RejectReason;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * What the SRT ingest counts over all its sessions: sessions, refusals by libsrt reason (a fixed
 * set of codes), and the packet counters of sessions that have closed (live ones are read from
 * their engine at scrape time and added). Written on the SRT loop, read by the scrape.
 */
public final class SrtCounters {
    /** Packet counters, each a {@code kind} label value. */
    public enum Kind {
        RECEIVED,
        LOST,
        RETRANSMITTED,
        DROPPED_TOO_LATE,
        UNDECRYPTABLE;

        /** This kind's counter in {@code s}. */
        public long of(SrtStats s) {
            return switch (this) {
                case RECEIVED -> s.packetsReceived();
                case LOST -> s.packetsLost();
                case RETRANSMITTED -> s.packetsRetransmittedReceived();
                case DROPPED_TOO_LATE -> s.packetsDroppedTooLate();
                case UNDECRYPTABLE -> s.packetsUndecryptable();
            };
        }
    }

    private static final Kind[] KINDS = Kind.values();

    private final LongAdder connected = new LongAdder();
    private final Map<String, LongAdder> rejections = new ConcurrentHashMap<>();
    private final LongAdder[] closedPackets = new LongAdder[KINDS.length];

    public SrtCounters() {
        for (int i = 0; i < KINDS.length; i++) {
            closedPackets[i] = new LongAdder();
        }
    }

    public void connected() {
        connected.increment();
    }

    public void rejected(int code) {
        rejections
                .computeIfAbsent(RejectReason.name(code), k -> new LongAdder())
                .increment();
    }

    public void closed(SrtStats s) {
        for (Kind k : KINDS) {
            closedPackets[k.ordinal()].add(k.of(s));
        }
    }

    public long sessionsConnected() {
        return connected.sum();
    }

    /** Refusals so far, by libsrt reason name ({@code bad secret}, {@code conflict}, ...). */
    public void forEachRejection(BiConsumer<String, Long> each) {
        rejections.forEach((reason, n) -> each.accept(reason, n.sum()));
    }

    public long closedPackets(Kind kind) {
        return closedPackets[kind.ordinal()].sum();
    }
}
