package io.tern.cluster;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.tern.netty.relay.FleetLeases;
import io.tern.turn.quota.LeaseDecision;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * This relay's agent in the fleet, on Redis through one Lettuce connection: it holds a lease for
 * every allocation ({@link FleetLeases}, counted by {@link LeaseScripts} so the fleet's
 * {@code user-quota} and {@code total-quota} hold across nodes), refreshes them and this node's
 * registration every third of the lease TTL on its own thread, and keeps the registry view
 * ({@link NodeRegistry}). Relay threads only hand it commands; nothing here runs per packet.
 *
 * <p>When Redis cannot answer, allocations are decided without it (the engine falls back on the
 * local quotas, or refuses with {@code --cluster-redis-fail closed}); this is logged once per outage
 * and counted. The leases held meanwhile are written back once Redis answers again, so the fleet's
 * count recovers. A value in Redis this node cannot read (a key of the wrong type, a garbled
 * registration) refuses the lease or skips the node, and is logged, at most once a minute.
 */
public final class RedisFleet implements FleetLeases, NodeRegistry, AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern");
    private static final String PREFIX = "tern/fleet/";
    private static final String NODES = PREFIX + "nodes";
    /** Leases per refresh script: a few hundred kB of arguments, a few ms of Redis. */
    private static final int REFRESH_BATCH = 1000;
    /** Nodes read from the index; a fleet is far smaller. */
    private static final int MAX_NODES = 1024;
    /** Longest registration field this node reads: addresses lists, not blobs. */
    private static final int MAX_FIELD_CHARS = 4096;

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);
    /** Longer than a command's: a cold JVM on a busy host takes seconds over its first TCP and RESP handshake. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private static final long TICK_MS = 500;
    private static final long MALFORMED_LOG_INTERVAL_NS = TimeUnit.MINUTES.toNanos(1);

    private final FleetSettings settings;
    private final ClientResources resources;
    private final RedisClient client;
    private final ScheduledExecutorService timer;
    /** Leases this node holds or asked for, by lease id: the user. Written by relay threads, read by the timer. */
    private final Map<Long, String> held = new ConcurrentHashMap<>();

    private final String memberPrefix;
    private final String realmKey;
    private final AtomicBoolean down = new AtomicBoolean();
    private final AtomicBoolean refreshDue = new AtomicBoolean(true);
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicLong roundTrips = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong outages = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();
    private final AtomicLong undecided = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong lastMalformedLogNs = new AtomicLong(System.nanoTime() - MALFORMED_LOG_INTERVAL_NS);

    private volatile StatefulRedisConnection<String, String> connection;
    private volatile List<FleetNode> view = List.of();
    private volatile List<String> relays = List.of();
    private volatile List<String> listeners;
    private volatile long downSinceNs;
    /** Set by {@link #close()}: a command it interrupts is no outage to report. */
    private volatile boolean closing;

    private long lastRefreshNs;

    private RedisFleet(FleetSettings settings) {
        this.settings = settings;
        byte[] boot = new byte[4];
        new SecureRandom().nextBytes(boot);
        // A restarted node's leases must not be taken for those its previous run left to lapse.
        this.memberPrefix = settings.nodeId() + "/" + HexFormat.of().formatHex(boot) + "/";
        this.realmKey = PREFIX + "realm/" + settings.realm() + "/leases";
        this.resources = ClientResources.builder()
                .ioThreadPoolSize(1)
                .computationThreadPoolSize(1)
                .reconnectDelay(
                        Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS))
                .build();
        this.client = RedisClient.create(resources, settings.redis().toRedisUri(COMMAND_TIMEOUT));
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(CONNECT_TIMEOUT)
                        .keepAlive(true)
                        .build())
                .timeoutOptions(TimeoutOptions.enabled(COMMAND_TIMEOUT))
                .build());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tern-fleet");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Connects (an unreachable Redis is a warning, not an error: the node starts on its local
     * quotas and keeps trying) and starts the refresh timer.
     */
    public static RedisFleet start(FleetSettings settings) {
        RedisFleet fleet = new RedisFleet(settings);
        fleet.connect();
        fleet.timer.scheduleWithFixedDelay(fleet::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        return fleet;
    }

    /** What this node announces in the registry once its listeners are bound; registers it at once. */
    public void announce(List<String> relayAddresses, List<String> listenerAddresses) {
        this.relays = List.copyOf(relayAddresses);
        this.listeners = List.copyOf(listenerAddresses);
        publishSoon();
    }

    /**
     * Marks this node draining in its registration, at once rather than at the next refresh: the
     * other nodes stop naming it as an alternate. There is no way back; a drained node exits.
     */
    public void markDraining() {
        if (draining.compareAndSet(false, true)) {
            publishSoon();
        }
    }

    /** Whether {@link #markDraining()} was called. */
    public boolean draining() {
        return draining.get();
    }

    /** Registers again now rather than at the next refresh. */
    private void publishSoon() {
        refreshDue.set(true);
        timer.execute(this::tick);
    }

    // ---------------------------------------------------------------------------------------------
    // Leases (relay threads)

    @Override
    public void acquire(long leaseId, String user, Consumer<LeaseDecision> answer) {
        // Held before asking, so that a release racing the answer is never undone by it.
        held.put(leaseId, user);
        StatefulRedisConnection<String, String> c = connection;
        if (c == null) {
            undecided(answer, "not connected");
            return;
        }
        roundTrips.incrementAndGet();
        c.async()
                .<Long>eval(
                        LeaseScripts.ACQUIRE,
                        ScriptOutputType.INTEGER,
                        new String[] {userKey(user), realmKey},
                        member(leaseId),
                        Long.toString(settings.leaseTtl().toMillis()),
                        Integer.toString(settings.userQuota()),
                        Integer.toString(settings.totalQuota()))
                .whenComplete((granted, failure) -> {
                    if (failure == null && granted != null) {
                        up();
                        if (granted == 1) {
                            answer.accept(LeaseDecision.GRANTED);
                        } else {
                            refusals.incrementAndGet();
                            answer.accept(LeaseDecision.REFUSED);
                        }
                    } else if (unreadable(failure)) {
                        held.remove(leaseId);
                        errors.incrementAndGet();
                        malformed("lease of user '" + user + "'", failure);
                        answer.accept(LeaseDecision.REFUSED);
                    } else {
                        errors.incrementAndGet();
                        undecided(answer, failure == null ? "no answer" : failure.toString());
                    }
                });
    }

    @Override
    public void release(long leaseId, String user) {
        held.remove(leaseId);
        StatefulRedisConnection<String, String> c = connection;
        if (c == null) {
            return; // it lapses within the TTL
        }
        roundTrips.incrementAndGet();
        c.async()
                .eval(
                        LeaseScripts.RELEASE,
                        ScriptOutputType.INTEGER,
                        new String[] {userKey(user), realmKey},
                        member(leaseId))
                .whenComplete((ok, failure) -> {
                    if (failure != null) {
                        errors.incrementAndGet();
                        if (!unreadable(failure)) {
                            down(failure.toString());
                        }
                    }
                });
    }

    private void undecided(Consumer<LeaseDecision> answer, String cause) {
        undecided.incrementAndGet();
        down(cause);
        answer.accept(LeaseDecision.UNAVAILABLE);
    }

    private String userKey(String user) {
        return PREFIX + "realm/" + settings.realm() + "/user/" + user + "/leases";
    }

    private String member(long leaseId) {
        return memberPrefix + Long.toHexString(leaseId);
    }

    /** Redis answered, with an error about the data (a key of the wrong type, a script error): not an outage. */
    private static boolean unreadable(Throwable failure) {
        Throwable cause = failure;
        while (cause != null && !(cause instanceof RedisCommandExecutionException)) {
            cause = cause.getCause();
        }
        if (cause == null) {
            return false;
        }
        String message = String.valueOf(cause.getMessage());
        return message.startsWith("WRONGTYPE") || message.startsWith("ERR");
    }

    // ---------------------------------------------------------------------------------------------
    // Outages

    private void down(String cause) {
        if (!closing && down.compareAndSet(false, true)) {
            downSinceNs = System.nanoTime();
            outages.incrementAndGet();
            LOG.log(
                    System.Logger.Level.WARNING,
                    "cluster-redis " + settings.redis() + " unreachable (" + cause + "): new allocations are "
                            + (settings.failClosed()
                                    ? "refused with 508 (cluster-redis-fail closed)"
                                    : "decided by this node's local quotas")
                            + " until it answers again");
        }
    }

    private void up() {
        if (down.compareAndSet(true, false)) {
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - downSinceNs);
            LOG.log(
                    System.Logger.Level.INFO,
                    "cluster-redis " + settings.redis() + " answers again after " + seconds
                            + " s; writing back this node's " + held.size() + " leases");
            publishSoon();
        }
    }

    private void malformed(String what, Throwable failure) {
        malformed.incrementAndGet();
        long now = System.nanoTime();
        long last = lastMalformedLogNs.get();
        if (now - last >= MALFORMED_LOG_INTERVAL_NS && lastMalformedLogNs.compareAndSet(last, now)) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "cluster-redis: unreadable " + what + " refused (" + failure.getMessage() + "); " + malformed.get()
                            + " so far");
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The timer thread: connect, refresh leases, register, read the registry

    private void connect() {
        StatefulRedisConnection<String, String> c = null;
        try {
            c = client.connect();
            // A first command here, not in the first Allocate, pays for the command path's warm-up.
            c.sync().ping();
            connection = c;
            up();
        } catch (RuntimeException e) {
            if (c != null) {
                c.close();
            }
            errors.incrementAndGet();
            down("cannot connect: " + rootMessage(e));
        }
    }

    private void tick() {
        if (connection == null) {
            connect();
            if (connection == null) {
                return;
            }
        }
        long now = System.nanoTime();
        long refreshEveryNs = settings.leaseTtl().toNanos() / 3;
        if (!refreshDue.getAndSet(false) && now - lastRefreshNs < refreshEveryNs) {
            return;
        }
        lastRefreshNs = now;
        // Each step on its own: a bad value met by one must not stop the others.
        guarded("leases", this::refreshLeases);
        guarded("this node's registration", this::register);
        guarded("the node registry", this::readRegistry);
    }

    private void guarded(String what, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            errors.incrementAndGet();
            if (unreadable(e)) {
                malformed(what, e);
            } else {
                down(rootMessage(e));
                refreshDue.set(true);
            }
        }
    }

    private void refreshLeases() {
        Map<String, List<Long>> byUser = new HashMap<>();
        held.forEach((leaseId, user) ->
                byUser.computeIfAbsent(user, u -> new ArrayList<>()).add(leaseId));
        List<String> keys = new ArrayList<>();
        List<String> args = new ArrayList<>();
        keys.add(realmKey);
        args.add(Long.toString(settings.leaseTtl().toMillis()));
        int inBatch = 0;
        for (Map.Entry<String, List<Long>> entry : byUser.entrySet()) {
            keys.add(userKey(entry.getKey()));
            args.add(Integer.toString(entry.getValue().size()));
            for (long leaseId : entry.getValue()) {
                args.add(member(leaseId));
            }
            inBatch += entry.getValue().size();
            if (inBatch >= REFRESH_BATCH) {
                runRefresh(keys, args);
                keys.subList(1, keys.size()).clear();
                args.subList(1, args.size()).clear();
                inBatch = 0;
            }
        }
        runRefresh(keys, args);
    }

    private void runRefresh(List<String> keys, List<String> args) {
        roundTrips.incrementAndGet();
        Long skipped = connection
                .sync()
                .eval(
                        LeaseScripts.REFRESH,
                        ScriptOutputType.INTEGER,
                        keys.toArray(String[]::new),
                        args.toArray(String[]::new));
        up();
        if (skipped != null && skipped > 0) {
            malformed(skipped + " user lease key(s) of another type", new IllegalStateException("not sorted sets"));
        }
    }

    private void register() {
        List<String> announced = listeners;
        if (announced == null) {
            return;
        }
        roundTrips.incrementAndGet();
        connection
                .sync()
                .eval(
                        LeaseScripts.REGISTER,
                        ScriptOutputType.INTEGER,
                        new String[] {NODES, nodeKey(settings.nodeId())},
                        settings.nodeId(),
                        Long.toString(settings.leaseTtl().toMillis()),
                        "relays",
                        String.join(",", relays),
                        "listeners",
                        String.join(",", announced),
                        "allocations",
                        Integer.toString(held.size()),
                        "draining",
                        draining.get() ? "1" : "0");
    }

    private void readRegistry() {
        roundTrips.incrementAndGet();
        List<String> ids = connection.sync().zrange(NODES, 0, MAX_NODES - 1);
        List<FleetNode> nodes = new ArrayList<>(ids.size());
        for (String id : ids) {
            roundTrips.incrementAndGet();
            Map<String, String> fields;
            try {
                fields = connection.sync().hgetall(nodeKey(id));
            } catch (RedisCommandExecutionException e) {
                errors.incrementAndGet();
                malformed("registration of node '" + id + "'", e);
                continue;
            }
            if (fields.isEmpty()) {
                continue; // lapsed since the index was pruned
            }
            FleetNode node = parseNode(id, fields);
            if (node != null) {
                nodes.add(node);
            }
        }
        nodes.sort((a, b) -> a.nodeId().compareTo(b.nodeId()));
        view = List.copyOf(nodes);
    }

    /** A registration as read back, or null (logged) when a field is missing, too long or not a number. */
    private FleetNode parseNode(String id, Map<String, String> fields) {
        String relaysField = fields.get("relays");
        String listenersField = fields.get("listeners");
        String allocationsField = fields.get("allocations");
        String drainingField = fields.get("draining");
        RuntimeException bad = null;
        if (relaysField == null || listenersField == null || allocationsField == null || drainingField == null) {
            bad = new IllegalArgumentException("a field is missing");
        } else if (id.length() > MAX_FIELD_CHARS
                || relaysField.length() > MAX_FIELD_CHARS
                || listenersField.length() > MAX_FIELD_CHARS) {
            bad = new IllegalArgumentException("a field is longer than " + MAX_FIELD_CHARS + " characters");
        } else if (!drainingField.equals("0") && !drainingField.equals("1")) {
            bad = new IllegalArgumentException("draining is '" + abbreviate(drainingField) + "'");
        } else {
            try {
                int allocations = Integer.parseInt(allocationsField);
                if (allocations < 0) {
                    throw new NumberFormatException("negative");
                }
                return new FleetNode(
                        id, split(relaysField), split(listenersField), allocations, drainingField.equals("1"));
            } catch (NumberFormatException e) {
                bad = new IllegalArgumentException("allocations is '" + abbreviate(allocationsField) + "'");
            }
        }
        errors.incrementAndGet();
        malformed("registration of node '" + abbreviate(id) + "'", bad);
        return null;
    }

    private static List<String> split(String field) {
        return field.isEmpty() ? List.of() : List.of(field.split(","));
    }

    private static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }

    private static String nodeKey(String nodeId) {
        return PREFIX + "node/" + nodeId;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }

    // ---------------------------------------------------------------------------------------------
    // Registry and figures

    @Override
    public String selfId() {
        return settings.nodeId();
    }

    @Override
    public List<FleetNode> liveNodes() {
        return view;
    }

    /** Whether the last exchange with Redis worked. */
    public boolean reachable() {
        return connection != null && !down.get();
    }

    /** Leases this node holds (granted, or granted on local quotas while Redis was away): its allocations. */
    public int heldLeases() {
        return held.size();
    }

    /** Commands sent to Redis (scripts, registry reads). */
    public long roundTrips() {
        return roundTrips.get();
    }

    /** Commands that failed: unreachable, timed out, or refused by Redis. */
    public long errors() {
        return errors.get();
    }

    /** Times Redis became unreachable. */
    public long outages() {
        return outages.get();
    }

    /** Leases refused because a fleet-wide quota was spent. */
    public long quotaRefusals() {
        return refusals.get();
    }

    /** Leases Redis could not decide (answered UNAVAILABLE). */
    public long undecidedLeases() {
        return undecided.get();
    }

    /** Values in Redis this node could not read (refused or skipped). */
    public long malformedValues() {
        return malformed.get();
    }

    /**
     * Stops refreshing and withdraws this node's registration; its leases are released by the
     * allocations' ends or, after a crash, lapse within the TTL.
     */
    @Override
    public void close() {
        closing = true;
        timer.shutdownNow();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        StatefulRedisConnection<String, String> c = connection;
        if (c != null) {
            try {
                c.sync().del(nodeKey(settings.nodeId()));
                c.sync().zrem(NODES, settings.nodeId());
            } catch (RuntimeException e) {
                // Unreachable: the registration lapses within the TTL.
            }
            c.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        resources.shutdown(0, 1, TimeUnit.SECONDS);
    }
}
