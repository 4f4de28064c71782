package io.tern.srt;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A caller and a listener joined by a simulated link with loss, delay and jitter (so reordering),
 * driven in simulated time: no sockets, no sleeps.
 */
final class SimulatedNetwork {
    static final InetSocketAddress LISTENER = new InetSocketAddress("127.0.0.1", 9000);
    static final InetSocketAddress CALLER = new InetSocketAddress("127.0.0.1", 40000);

    record InFlight(long atNs, long order, byte[] data, InetSocketAddress from, boolean toListener) {}

    final SrtListener listener;
    final SrtCaller caller;
    final Random random = new Random(42);
    final PriorityQueue<InFlight> wire = new PriorityQueue<>(
            (a, b) -> a.atNs != b.atNs ? Long.compare(a.atNs, b.atNs) : Long.compare(a.order, b.order));
    final List<byte[]> delivered = new ArrayList<>();
    final List<SrtEvent> listenerEvents = new ArrayList<>();
    final List<SrtEvent> callerEvents = new ArrayList<>();
    /** Answers the listener's publish requests as they come out; null leaves them to the test. */
    StreamAuthorizer owner;

    double lossToListener;
    double lossToCaller;
    long delayNs = 20_000_000L;
    long jitterNs;
    long nowNs = 1_000_000_000L;
    private long order;
    private final Transmit t = new Transmit();
    private final Delivery d = new Delivery();

    SimulatedNetwork(SrtListener listener, SrtCaller caller) {
        this.listener = listener;
        this.caller = caller;
    }

    void connect() {
        caller.connect(LISTENER, nowNs);
        drain();
    }

    /** Runs until {@code untilNs}, processing wire arrivals and both engines' timers. */
    void runUntil(long untilNs) {
        while (true) {
            long next = Math.min(listener.nextDeadlineNs(), caller.nextDeadlineNs());
            if (!wire.isEmpty()) {
                next = Math.min(next, wire.peek().atNs());
            }
            if (next > untilNs) {
                nowNs = untilNs;
                return;
            }
            nowNs = Math.max(nowNs, next);
            while (!wire.isEmpty() && wire.peek().atNs() <= nowNs) {
                InFlight f = wire.poll();
                if (f.toListener()) {
                    listener.onDatagram(f.data(), 0, f.data().length, f.from(), nowNs);
                } else {
                    caller.onDatagram(f.data(), 0, f.data().length, f.from(), nowNs);
                }
            }
            if (listener.nextDeadlineNs() <= nowNs) {
                listener.onTimeout(nowNs);
            }
            if (caller.nextDeadlineNs() <= nowNs) {
                caller.onTimeout(nowNs);
            }
            drain();
        }
    }

    void drain() {
        while (caller.pollTransmit(t)) {
            put(t, CALLER, true, lossToListener);
        }
        while (listener.pollTransmit(t)) {
            put(t, LISTENER, false, lossToCaller);
        }
        while (listener.pollDelivery(d)) {
            delivered.add(java.util.Arrays.copyOf(d.data, d.length));
        }
        boolean answered = false;
        for (SrtEvent e; (e = listener.pollEvent()) != null; ) {
            listenerEvents.add(e);
            if (e instanceof SrtEvent.PublishRequested r && owner != null) {
                listener.answerPublish(r.requestId(), owner.authorize(r.streamId(), r.peer()), nowNs);
                answered = true;
            }
        }
        for (SrtEvent e; (e = caller.pollEvent()) != null; ) {
            callerEvents.add(e);
        }
        if (answered) {
            drain();
        }
    }

    private void put(Transmit t, InetSocketAddress from, boolean toListener, double loss) {
        if (random.nextDouble() < loss) {
            return;
        }
        long jitter = jitterNs == 0 ? 0 : (long) (random.nextDouble() * jitterNs);
        byte[] copy = java.util.Arrays.copyOf(t.data, t.length);
        wire.add(new InFlight(nowNs + delayNs + jitter, order++, copy, from, toListener));
    }

    /** Sends {@code count} payloads, one every {@code intervalNs}, each numbered in its first 4 bytes. */
    private int streamed;

    void stream(int count, long intervalNs, int size) {
        for (int k = 0; k < count; k++) {
            int i = streamed++;
            byte[] p = new byte[size];
            p[0] = (byte) (i >>> 24);
            p[1] = (byte) (i >>> 16);
            p[2] = (byte) (i >>> 8);
            p[3] = (byte) i;
            caller.send(p, 0, size, nowNs);
            drain();
            runUntil(nowNs + intervalNs);
        }
    }

    static int number(byte[] p) {
        return ((p[0] & 0xFF) << 24) | ((p[1] & 0xFF) << 16) | ((p[2] & 0xFF) << 8) | (p[3] & 0xFF);
    }
}
