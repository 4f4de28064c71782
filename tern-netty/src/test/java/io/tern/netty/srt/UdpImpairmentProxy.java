package io.tern.netty.srt;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A user-space UDP impairment proxy for tests (the kernel's netem is not available here): clients
 * send to {@link #port()}, each client gets its own upstream socket towards the target, and both
 * directions suffer seeded loss, delay, jitter (so reordering) and duplication. Queues are bounded
 * in datagrams, and the proxy's one thread stops on {@link #close()}.
 */
public final class UdpImpairmentProxy implements AutoCloseable {
    /** One direction's impairments. */
    public record Impairment(double loss, long delayNs, long jitterNs, double duplicate) {
        public static Impairment none() {
            return new Impairment(0, 0, 0, 0);
        }
    }

    private record Pending(long atNs, long order, byte[] data, DatagramChannel via, SocketAddress to) {}

    static final int MAX_QUEUED = 20_000;
    static final int MAX_CLIENTS = 64;

    private final DatagramChannel front;
    private final InetSocketAddress target;
    private final Impairment toTarget;
    private final Impairment toClient;
    private final Random random;
    private final Selector selector;
    private final Map<SocketAddress, DatagramChannel> upstream = new HashMap<>();
    private final Map<DatagramChannel, SocketAddress> clients = new HashMap<>();
    private final PriorityQueue<Pending> queue = new PriorityQueue<>(
            (a, b) -> a.atNs != b.atNs ? Long.compare(a.atNs, b.atNs) : Long.compare(a.order, b.order));
    private final Thread thread;
    private volatile boolean running = true;
    private long order;
    public volatile long forwarded;
    public volatile long lost;
    public volatile long overflow;

    public UdpImpairmentProxy(InetSocketAddress target, Impairment toTarget, Impairment toClient, long seed)
            throws IOException {
        this.target = target;
        this.toTarget = toTarget;
        this.toClient = toClient;
        this.random = new Random(seed);
        this.selector = Selector.open();
        this.front = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        front.configureBlocking(false);
        front.register(selector, SelectionKey.OP_READ);
        thread = new Thread(this::run, "udp-impairment-proxy");
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        try {
            return ((InetSocketAddress) front.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void run() {
        ByteBuffer buf = ByteBuffer.allocate(65536);
        try {
            while (running) {
                long now = System.nanoTime();
                long waitMs = queue.isEmpty() ? 50 : Math.max(0, (queue.peek().atNs() - now) / 1_000_000);
                if (waitMs > 0) {
                    selector.select(Math.min(waitMs, 50));
                } else {
                    selector.selectNow();
                }
                selector.selectedKeys().clear();
                readAll(buf);
                sendDue();
            }
        } catch (IOException e) {
            if (running) {
                throw new IllegalStateException(e);
            }
        }
    }

    private void readAll(ByteBuffer buf) throws IOException {
        for (SocketAddress from; (from = receive(front, buf)) != null; ) {
            DatagramChannel up = upstream.get(from);
            if (up == null) {
                if (upstream.size() >= MAX_CLIENTS) {
                    continue;
                }
                up = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
                up.configureBlocking(false);
                up.register(selector, SelectionKey.OP_READ);
                upstream.put(from, up);
                clients.put(up, from);
            }
            schedule(buf, up, target, toTarget);
        }
        for (Map.Entry<DatagramChannel, SocketAddress> e : clients.entrySet()) {
            while (receive(e.getKey(), buf) != null) {
                schedule(buf, front, e.getValue(), toClient);
            }
        }
    }

    private static SocketAddress receive(DatagramChannel ch, ByteBuffer buf) throws IOException {
        buf.clear();
        SocketAddress from = ch.receive(buf);
        buf.flip();
        return from;
    }

    /**
     * Loss and duplication stop {@code ns} after the first datagram (delay stays). The last packets
     * of a stream have no successor to reveal their loss, so no SRT receiver (libsrt's included)
     * can ask for them again; a test that counts every frame lets the tail through.
     */
    public UdpImpairmentProxy impairFor(long ns) {
        this.impairForNs = ns;
        return this;
    }

    private volatile long impairForNs = Long.MAX_VALUE;
    private long firstNs;

    private void schedule(ByteBuffer buf, DatagramChannel via, SocketAddress to, Impairment imp) {
        long now = System.nanoTime();
        if (firstNs == 0) {
            firstNs = now;
        }
        if (now - firstNs > impairForNs) {
            imp = new Impairment(0, imp.delayNs(), imp.jitterNs(), 0);
        }
        if (random.nextDouble() < imp.loss()) {
            lost++;
            return;
        }
        byte[] data = new byte[buf.remaining()];
        buf.get(data);
        int copies = random.nextDouble() < imp.duplicate() ? 2 : 1;
        for (int i = 0; i < copies; i++) {
            if (queue.size() >= MAX_QUEUED) {
                overflow++;
                return;
            }
            long jitter = imp.jitterNs() == 0 ? 0 : (long) (random.nextDouble() * imp.jitterNs());
            queue.add(new Pending(System.nanoTime() + imp.delayNs() + jitter, order++, data, via, to));
        }
    }

    private void sendDue() throws IOException {
        long now = System.nanoTime();
        while (!queue.isEmpty() && queue.peek().atNs() <= now) {
            Pending p = queue.poll();
            p.via().send(ByteBuffer.wrap(p.data()), p.to());
            forwarded++;
        }
    }

    @Override
    public void close() throws IOException {
        running = false;
        selector.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (DatagramChannel up : clients.keySet()) {
            up.close();
        }
        front.close();
        selector.close();
    }
}
