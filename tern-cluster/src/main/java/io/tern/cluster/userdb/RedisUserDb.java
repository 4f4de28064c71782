package io.tern.cluster.userdb;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.tern.cluster.RedisAddress;
import io.tern.turn.auth.DynamicCredentials;
import io.tern.turn.policy.IpRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * coturn's {@code redis-userdb}, read: every few seconds, on its own thread, this reads the realm's
 * long-term users ({@code turn/realm/<realm>/user/<user>/key}, the hex key coturn's
 * {@code turnadmin -a} writes) and REST secrets ({@code turn/realm/<realm>/secret}, a set, so that
 * secrets rotate) and the peer ranges ({@code turn/allowed-peer-ip/*}, {@code turn/denied-peer-ip/*}),
 * and hands the engine's credential store a new {@link DynamicCredentials} and its peer policy the
 * new ranges. The
 * relay threads never wait on Redis: they read the last snapshot handed over.
 *
 * <p>Values are bounded in Redis before they travel (a Lua script reads only strings of a key's
 * length, and counts a set before reading it); what is still malformed is refused by
 * {@link DynamicCredentials}. Each refusal is logged once, while it lasts. When Redis cannot be
 * read, the last reading stays in force, and the outage is logged once.
 */
public final class RedisUserDb implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final int SCAN_COUNT = 1000;
    /** A coturn key is 32 or 64 hex digits, with perhaps a 0x and a newline. */
    private static final int MAX_KEY_VALUE_CHARS = 80;
    /** One refusal per line; a flood of them is summarised rather than logged line by line. */
    private static final int MAX_REFUSALS_LOGGED_PER_READING = 20;
    /** Peer ranges kept per kind from one reading; each decision walks them all. */
    static final int MAX_PEER_RANGES = 1000;
    /** "A-B" of two IPv6 literals with some room. */
    private static final int MAX_RANGE_CHARS = 100;

    /** Values of KEYS, each '' when gone since the scan and '!' when not a string of a key's length. */
    static final String READ_KEYS = """
            local r = {}
            for i, k in ipairs(KEYS) do
              local t = redis.call('TYPE', k).ok
              if t == 'string' then
                if redis.call('STRLEN', k) > tonumber(ARGV[1]) then r[i] = '!' else r[i] = redis.call('GET', k) end
              elseif t == 'none' then r[i] = '' else r[i] = '!' end
            end
            return r
            """;

    /** {'ok', members...}, members over ARGV[2] bytes as ''; or {'wrongtype'} / {'toomany', n}. */
    static final String READ_SECRETS = """
            local t = redis.call('TYPE', KEYS[1]).ok
            if t == 'none' then return {'ok'} end
            if t ~= 'set' then return {'wrongtype'} end
            local n = redis.call('SCARD', KEYS[1])
            if n > tonumber(ARGV[1]) then return {'toomany', tostring(n)} end
            local r = {'ok'}
            for _, m in ipairs(redis.call('SMEMBERS', KEYS[1])) do
              if #m > tonumber(ARGV[2]) then r[#r + 1] = '' else r[#r + 1] = m end
            end
            return r
            """;

    private final RedisAddress address;
    private final String realm;
    private final String userPrefix;
    private final String secretKey;
    private final Consumer<DynamicCredentials> sink;
    private final boolean withSecrets;
    private final BiConsumer<List<IpRange>, List<IpRange>> peerRanges;
    private final ClientResources resources;
    private final RedisClient client;
    private final ScheduledExecutorService timer;
    private final AtomicLong readings = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();

    private StatefulRedisConnection<String, String> connection;
    private boolean down;
    private Set<String> reported = Set.of();
    private volatile boolean closing;

    private RedisUserDb(
            RedisAddress address,
            String realm,
            boolean withSecrets,
            Consumer<DynamicCredentials> sink,
            BiConsumer<List<IpRange>, List<IpRange>> peerRanges) {
        this.address = address;
        this.realm = realm;
        this.userPrefix = "turn/realm/" + realm + "/user/";
        this.secretKey = "turn/realm/" + realm + "/secret";
        this.sink = sink;
        this.withSecrets = withSecrets;
        this.peerRanges = peerRanges;
        this.resources = ClientResources.builder()
                .ioThreadPoolSize(1)
                .computationThreadPoolSize(1)
                .build();
        this.client = RedisClient.create(resources, address.toRedisUri(COMMAND_TIMEOUT));
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
            Thread t = new Thread(r, "tern-userdb");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Reads at once, then every {@code interval}, on its own thread; an unreachable Redis is logged,
     * not an error.
     *
     * @param withSecrets whether REST secrets are read too (coturn reads them with
     *                    {@code use-auth-secret} only)
     * @param sink        given each reading; it must only swap a reference
     * @param peerRanges  given each reading's allowed and denied peer ranges; it must only swap a
     *                    reference
     */
    public static RedisUserDb start(
            RedisAddress address,
            String realm,
            boolean withSecrets,
            Duration interval,
            Consumer<DynamicCredentials> sink,
            BiConsumer<List<IpRange>, List<IpRange>> peerRanges) {
        RedisUserDb db = new RedisUserDb(address, realm, withSecrets, sink, peerRanges);
        db.timer.submit(db::readOnce);
        db.timer.scheduleWithFixedDelay(db::readOnce, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return db;
    }

    /** Readings handed to the engine. */
    public long readings() {
        return readings.get();
    }

    /** Readings that failed (Redis unreachable or in error); the previous one stayed in force. */
    public long failures() {
        return failures.get();
    }

    /** Values refused as malformed or beyond bounds, summed over readings. */
    public long refusals() {
        return refusals.get();
    }

    private void readOnce() {
        if (closing) {
            return;
        }
        try {
            if (connection == null) {
                connection = client.connect();
            }
            RedisCommands<String, String> redis = connection.sync();
            List<String> problems = new ArrayList<>();
            Map<String, String> users = readUsers(redis, problems);
            List<String> secrets = withSecrets ? readSecrets(redis, problems) : List.of();
            List<IpRange> allowed = readPeerRanges(redis, "allowed", problems);
            List<IpRange> denied = readPeerRanges(redis, "denied", problems);
            DynamicCredentials credentials = DynamicCredentials.of(realm, users, secrets, problems::add);
            sink.accept(credentials);
            peerRanges.accept(allowed, denied);
            readings.incrementAndGet();
            refusals.addAndGet(problems.size());
            if (down) {
                down = false;
                LOG.log(System.Logger.Level.INFO, "redis-userdb " + address + " is readable again");
            }
            report(problems);
        } catch (RuntimeException e) {
            if (closing) {
                return;
            }
            failures.incrementAndGet();
            if (!down) {
                down = true;
                LOG.log(
                        System.Logger.Level.WARNING,
                        "redis-userdb " + address + " cannot be read (" + e.getMessage()
                                + "); the last users and secrets read stay in force until it can");
            }
        }
    }

    private Map<String, String> readUsers(RedisCommands<String, String> redis, List<String> problems) {
        Map<String, String> byKey = readStrings(
                redis,
                glob(userPrefix) + "*/key",
                MAX_KEY_VALUE_CHARS,
                DynamicCredentials.MAX_USERS,
                "users in realm '" + realm + "'",
                problems);
        Map<String, String> users = new HashMap<>();
        byKey.forEach(
                (key, value) -> users.put(key.substring(userPrefix.length(), key.length() - "/key".length()), value));
        return users;
    }

    /**
     * coturn's {@code turn/<kind>-peer-ip/<id>} keys (not per realm, as coturn reads them), each an
     * address, a range {@code A-B} or a CIDR.
     */
    private List<IpRange> readPeerRanges(RedisCommands<String, String> redis, String kind, List<String> problems) {
        Map<String, String> byKey = readStrings(
                redis,
                "turn/" + kind + "-peer-ip/*",
                MAX_RANGE_CHARS,
                MAX_PEER_RANGES,
                kind + " peer ranges",
                problems);
        List<IpRange> ranges = new ArrayList<>();
        byKey.forEach((key, value) -> {
            if ("!".equals(value)) {
                problems.add(printable(key) + ": not a string of at most " + MAX_RANGE_CHARS + " characters");
                return;
            }
            try {
                ranges.add(IpRange.parse(value));
            } catch (IllegalArgumentException e) {
                problems.add(printable(key) + ": not an address, A-B range or CIDR (" + e.getMessage() + ")");
            }
        });
        return ranges;
    }

    private static String printable(String key) {
        String cut = key.length() > 96 ? key.substring(0, 96) + "..." : key;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }

    /**
     * The string values of the keys matching {@code pattern}, each '!' when it is not a string of
     * at most {@code maxValueChars}; at most {@code maxKeys} of them.
     */
    private static Map<String, String> readStrings(
            RedisCommands<String, String> redis,
            String pattern,
            int maxValueChars,
            int maxKeys,
            String what,
            List<String> problems) {
        ScanArgs match = ScanArgs.Builder.matches(pattern).limit(SCAN_COUNT);
        Map<String, String> values = new HashMap<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.scan(cursor, match);
            List<String> keys = page.getKeys();
            if (!keys.isEmpty()) {
                List<Object> read = redis.eval(
                        READ_KEYS,
                        ScriptOutputType.MULTI,
                        keys.toArray(String[]::new),
                        Integer.toString(maxValueChars));
                for (int i = 0; i < keys.size() && i < read.size(); i++) {
                    String value = read.get(i) == null ? "" : read.get(i).toString();
                    if (value.isEmpty()) {
                        continue;
                    }
                    if (values.size() >= maxKeys) {
                        problems.add("more than " + maxKeys + " " + what + ": the rest are left out");
                        return values;
                    }
                    values.put(keys.get(i), value);
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return values;
    }

    private List<String> readSecrets(RedisCommands<String, String> redis, List<String> problems) {
        List<Object> answer = redis.eval(
                READ_SECRETS,
                ScriptOutputType.MULTI,
                new String[] {secretKey},
                Integer.toString(DynamicCredentials.MAX_SECRETS),
                Integer.toString(DynamicCredentials.MAX_SECRET_BYTES));
        String status = answer.isEmpty() ? "" : String.valueOf(answer.get(0));
        switch (status) {
            case "ok" -> {
                List<String> secrets = new ArrayList<>();
                for (int i = 1; i < answer.size(); i++) {
                    secrets.add(String.valueOf(answer.get(i)));
                }
                return secrets;
            }
            case "toomany" ->
                problems.add(secretKey + " holds " + answer.get(1) + " secrets, over " + DynamicCredentials.MAX_SECRETS
                        + ": none of them is used");
            default -> problems.add(secretKey + " is not a set: no secret is used");
        }
        return List.of();
    }

    /** Logs each refusal once while it lasts; one gone and back is logged again. */
    private void report(List<String> problems) {
        Set<String> now = new HashSet<>(problems);
        int logged = 0;
        int unlogged = 0;
        for (String problem : now) {
            if (reported.contains(problem)) {
                continue;
            }
            if (logged < MAX_REFUSALS_LOGGED_PER_READING) {
                LOG.log(System.Logger.Level.WARNING, "redis-userdb: refused " + problem);
                logged++;
            } else {
                unlogged++;
            }
        }
        if (unlogged > 0) {
            LOG.log(System.Logger.Level.WARNING, "redis-userdb: refused " + unlogged + " more values");
        }
        reported = now;
    }

    /** {@code s} with Redis's glob characters escaped, so a realm matches only itself. */
    static String glob(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    @Override
    public void close() {
        closing = true;
        timer.shutdownNow();
        try {
            timer.awaitTermination(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (connection != null) {
            connection.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        resources.shutdown(0, 1, TimeUnit.SECONDS);
    }
}
