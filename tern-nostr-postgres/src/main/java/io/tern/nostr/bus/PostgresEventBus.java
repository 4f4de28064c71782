package io.tern.nostr.bus;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.Hex;
import io.tern.nostr.store.postgres.PostgresBackend;
import io.tern.nostr.store.postgres.PostgresSchema;
import io.tern.nostr.store.postgres.PostgresStoreConfig;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Carries what other nodes on the same database accept to this node, each event once (pubky's
 * and fiatjaf/eventstore's design, kept gapless):
 *
 * <ul>
 *   <li><b>Stored events.</b> The store's write transaction NOTIFYs channel {@code tern_nostr} as it
 *       commits. The notification is only a wake-up: the bus then reads {@code nostr_events} by
 *       sequence id, from the last one it has seen, in pages. Because sequence ids follow commit
 *       order (see the store's writer), reading {@code seq > last} misses nothing, also across a
 *       lost connection: after reconnecting (and LISTENing again) the bus reads from where it was.
 *       With no notification it still reads every {@code pollMs}, so a lost NOTIFY costs delay,
 *       never an event. Rows this node stored itself ({@code origin}) are skipped.
 *   <li><b>Ephemeral events</b>, never stored, cross as NOTIFY payloads ({@code E origin sentMs
 *       json}) when under {@link #MAX_INLINE_BYTES}; a larger one is put in the unlogged
 *       {@code nostr_ephemeral} table and announced by its row ({@code L origin seq}). NOTIFY has no
 *       replay, so an ephemeral event sent while this node was disconnected is not delivered here;
 *       ephemeral events are best-effort by definition (NIP-01).
 * </ul>
 *
 * Duplicates (the same event accepted on two nodes, or read twice) are suppressed by id over the
 * last {@link #RECENT_IDS} ids delivered. The bus has two threads, each with a connection of its
 * own outside the pool: the listener (LISTEN, the catch-up reads, delivery to the sink) and the
 * publisher of ephemeral events. Both reconnect by themselves, with a bounded backoff.
 */
public final class PostgresEventBus implements AutoCloseable {
    /** NOTIFY refuses payloads of 8000 bytes or more; this leaves room for the header. */
    public static final int MAX_INLINE_BYTES = 7900;

    static final int RECENT_IDS = 65_536;
    private static final int PAGE_ROWS = 500;
    private static final long MAX_BACKOFF_MS = 2_000;
    private static final int WAIT_SLICE_MS = 250;
    private static final int MAX_PUBLISH_QUEUE = 100_000;
    private static final Object STOP = new Object();

    private final PostgresStoreConfig config;
    private final long origin;
    private final ForeignEventSink sink;
    private final LongSupplier epochMillis;
    private final long pollMs;
    private final BusCounters counters = new BusCounters();
    private final RecentIds recent = new RecentIds(RECENT_IDS);
    private final LinkedBlockingQueue<Object> toPublish = new LinkedBlockingQueue<>(MAX_PUBLISH_QUEUE);
    private final Thread listener;
    private final Thread publisher;
    private volatile boolean stopping;
    private volatile boolean listening;
    private long lastSeq = -1;

    private PostgresEventBus(
            PostgresStoreConfig config, long origin, ForeignEventSink sink, LongSupplier epochMillis, long pollMs) {
        this.config = config;
        this.origin = origin;
        this.sink = sink;
        this.epochMillis = epochMillis;
        this.pollMs = pollMs;
        this.listener = new Thread(this::runListener, "tern-nostr-postgres-bus");
        this.publisher = new Thread(this::runPublisher, "tern-nostr-postgres-bus-publisher");
        listener.setDaemon(true);
        publisher.setDaemon(true);
    }

    /**
     * Starts the bus of the node whose store marks its rows with {@code origin}
     * ({@code PostgresBackend.origin()}); delivery starts with what commits after this call.
     *
     * @param epochMillis the wall clock, for the lag of ephemeral events ({@code System::currentTimeMillis})
     * @param pollMs how often to read by sequence id when no notification comes (5000 in production)
     */
    public static PostgresEventBus start(
            PostgresStoreConfig config, long origin, ForeignEventSink sink, LongSupplier epochMillis, long pollMs) {
        PostgresEventBus bus = new PostgresEventBus(config, origin, sink, epochMillis, pollMs);
        bus.listener.start();
        bus.publisher.start();
        return bus;
    }

    public BusCounters counters() {
        return counters;
    }

    /** Whether the listener is connected and LISTENing now. */
    public boolean listening() {
        return listening;
    }

    /** The last sequence id read (-1 before the first read). */
    public synchronized long lastSeq() {
        return lastSeq;
    }

    /**
     * Sends an ephemeral event this node accepted to the other nodes; returns at once. When the
     * queue is full or the database is down the event is dropped and counted
     * ({@link BusCounters#ephemeralLost()}).
     */
    public void publishEphemeral(Event event) {
        if (!toPublish.offer(event)) {
            counters.ephemeralLost.incrementAndGet();
        }
    }

    // ---- listener

    private void runListener() {
        long backoffMs = 50;
        while (!stopping) {
            try (Connection c = PostgresBackend.connect(config, "tern-nostr-bus")) {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + PostgresSchema.CHANNEL);
                }
                if (lastSeq() < 0) {
                    // Only what commits from now on: the history is the store's to serve.
                    try (Statement s = c.createStatement();
                            ResultSet rs = s.executeQuery("SELECT coalesce(max(seq), 0) FROM nostr_events")) {
                        rs.next();
                        setLastSeq(rs.getLong(1));
                    }
                } else {
                    catchUp(c);
                }
                listening = true;
                backoffMs = 50;
                listen(c);
            } catch (SQLException | RuntimeException e) {
                listening = false;
                if (stopping) {
                    return;
                }
                counters.reconnects.incrementAndGet();
                backoffMs = pause(backoffMs);
            }
        }
    }

    private void listen(Connection c) throws SQLException {
        PGConnection pg = c.unwrap(PGConnection.class);
        long lastReadNs = System.nanoTime();
        while (!stopping) {
            // Short waits, so that close() is noticed quickly whatever the poll interval.
            PGNotification[] notes = pg.getNotifications(WAIT_SLICE_MS);
            boolean stored = System.nanoTime() - lastReadNs >= pollMs * 1_000_000L; // a quiet poll reads too
            if (notes != null) {
                for (PGNotification n : notes) {
                    counters.notifications.incrementAndGet();
                    stored |= onNotification(c, n.getParameter());
                }
            }
            if (stored) {
                catchUp(c);
                lastReadNs = System.nanoTime();
            }
        }
    }

    /** Handles one payload; true when it announces stored events (a read by sequence id follows). */
    private boolean onNotification(Connection c, String payload) throws SQLException {
        if (payload.startsWith("E ")) {
            int a = payload.indexOf(' ', 2);
            int b = payload.indexOf(' ', a + 1);
            int d = payload.indexOf(' ', b + 1);
            if (a < 0 || b < 0 || d < 0 || Long.parseLong(payload, 2, a, 10) == origin) {
                return false;
            }
            long sentMs = Long.parseLong(payload, a + 1, b, 10);
            String id = payload.substring(b + 1, d);
            byte[] json = payload.substring(d + 1).getBytes(StandardCharsets.UTF_8);
            deliver(new ForeignEvent(id, 0, json, true, -1), epochMillis.getAsLong() - sentMs);
            return false;
        }
        if (payload.startsWith("L ")) {
            int a = payload.indexOf(' ', 2);
            if (a < 0 || Long.parseLong(payload, 2, a, 10) == origin) {
                return false;
            }
            long seq = Long.parseLong(payload, a + 1, payload.length(), 10);
            try (PreparedStatement s = c.prepareStatement("SELECT id, json,"
                    + " (extract(epoch from clock_timestamp()) * 1000)::bigint - stored_ms"
                    + " FROM nostr_ephemeral WHERE seq = ?")) {
                s.setLong(1, seq);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        deliver(
                                new ForeignEvent(Hex.encode(rs.getBytes(1)), 0, rs.getBytes(2), true, -1),
                                rs.getLong(3));
                    }
                }
            }
            return false;
        }
        return true;
    }

    /** Reads every stored event after {@link #lastSeq}, page by page, delivering the other nodes'. */
    private void catchUp(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT seq, origin <> ?, id, created_at,"
                + " CASE WHEN origin <> ? THEN json END,"
                + " (extract(epoch from clock_timestamp()) * 1000)::bigint - stored_ms"
                + " FROM nostr_events WHERE seq > ? ORDER BY seq LIMIT " + PAGE_ROWS)) {
            int rows;
            do {
                counters.catchUpReads.incrementAndGet();
                s.setLong(1, origin);
                s.setLong(2, origin);
                s.setLong(3, lastSeq());
                rows = 0;
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        rows++;
                        long seq = rs.getLong(1);
                        if (rs.getBoolean(2)) {
                            deliver(
                                    new ForeignEvent(
                                            Hex.encode(rs.getBytes(3)), rs.getLong(4), rs.getBytes(5), false, seq),
                                    rs.getLong(6));
                        }
                        setLastSeq(seq);
                    }
                }
            } while (rows == PAGE_ROWS && !stopping);
        }
    }

    private void deliver(ForeignEvent e, long lagMs) {
        if (!recent.add(e.id())) {
            counters.duplicatesSuppressed.incrementAndGet();
            return;
        }
        (e.ephemeral() ? counters.deliveredEphemeral : counters.deliveredStored).incrementAndGet();
        counters.lag(lagMs);
        sink.deliver(e);
    }

    private synchronized void setLastSeq(long seq) {
        lastSeq = seq;
    }

    // ---- publisher

    private void runPublisher() {
        List<Object> batch = new ArrayList<>();
        long backoffMs = 50;
        while (!stopping) {
            try (Connection c = PostgresBackend.connect(config, "tern-nostr-bus-publisher")) {
                c.setAutoCommit(false);
                backoffMs = 50;
                while (!stopping) {
                    if (batch.isEmpty()) {
                        batch.add(toPublish.take());
                        toPublish.drainTo(batch, 255);
                    }
                    if (batch.remove(STOP)) {
                        return;
                    }
                    publish(c, batch);
                    batch.clear();
                }
            } catch (SQLException | RuntimeException e) {
                // This batch was not published (its transaction never committed): ephemeral, so dropped.
                counters.ephemeralLost.addAndGet(batch.size());
                batch.clear();
                if (stopping) {
                    return;
                }
                backoffMs = pause(backoffMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One transaction: the NOTIFYs go out together at its commit. */
    private void publish(Connection c, List<Object> batch) throws SQLException {
        try (PreparedStatement notify = c.prepareStatement("SELECT pg_notify('" + PostgresSchema.CHANNEL + "', ?)");
                PreparedStatement large = c.prepareStatement("INSERT INTO nostr_ephemeral(id, origin, stored_ms, json)"
                        + " VALUES (?, ?, (extract(epoch from clock_timestamp()) * 1000)::bigint, ?) RETURNING seq")) {
            for (Object o : batch) {
                Event e = (Event) o;
                String json = new String(e.json(), StandardCharsets.UTF_8);
                String payload = "E " + origin + " " + epochMillis.getAsLong() + " " + e.id() + " " + json;
                if (payload.getBytes(StandardCharsets.UTF_8).length > MAX_INLINE_BYTES) {
                    large.setBytes(1, e.idBytes());
                    large.setLong(2, origin);
                    large.setBytes(3, e.json());
                    long seq;
                    try (ResultSet rs = large.executeQuery()) {
                        rs.next();
                        seq = rs.getLong(1);
                    }
                    payload = "L " + origin + " " + seq;
                }
                notify.setString(1, payload);
                notify.executeQuery().close();
            }
            c.commit();
            counters.ephemeralPublished.addAndGet(batch.size());
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // broken connection; reconnecting anyway
            }
            throw e;
        }
    }

    /** Waits before reconnecting (the database is down or restarting); returns the next, doubled, backoff. */
    private long pause(long backoffMs) {
        try {
            Thread.sleep(backoffMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping = true;
        }
        return Math.min(MAX_BACKOFF_MS, backoffMs * 2);
    }

    /** Stops both threads and closes their connections. */
    @Override
    public void close() {
        stopping = true;
        toPublish.clear();
        toPublish.offer(STOP);
        listener.interrupt();
        try {
            listener.join(TimeUnit.SECONDS.toMillis(10));
            publisher.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
