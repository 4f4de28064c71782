package io.tern.cluster;

/**
 * The Lua scripts that keep the fleet's counts, each run atomically by Redis, so two nodes can
 * never both take the last slot. A lease is a member of two sorted sets, its user's and its realm's,
 * scored by when it lapses (Redis's own clock, {@code TIME}, so nodes' clocks do not matter); lapsed
 * members are dropped before every count, and each set expires as a whole once nothing refreshes it.
 * A member that would lapse later than {@link #MAX_TTL_MS} from now was not written by a node and is
 * dropped too, so a hand-edited score cannot hold a slot for ever.
 */
final class LeaseScripts {
    /** The longest {@code --cluster-lease-ttl}. */
    static final long MAX_TTL_MS = 3_600_000;

    private static final String NOW = "local t = redis.call('TIME')\n"
            + "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n";

    private static final String PRUNE = "local function prune(key)\n"
            + "  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)\n"
            + "  redis.call('ZREMRANGEBYSCORE', key, '(' .. (now + " + MAX_TTL_MS + "), '+inf')\n"
            + "end\n";

    /**
     * KEYS: user set, realm set. ARGV: member, TTL in ms, user quota, total quota (0: none). Returns 1
     * (granted, or already held: an idempotent retry), 0 (the user's quota is spent), -1 (the total).
     */
    static final String ACQUIRE = NOW + PRUNE
            + "local ttl = tonumber(ARGV[2])\n"
            + "prune(KEYS[1])\n"
            + "prune(KEYS[2])\n"
            + "if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then\n"
            + "  local userQuota = tonumber(ARGV[3])\n"
            + "  local totalQuota = tonumber(ARGV[4])\n"
            + "  if userQuota > 0 and redis.call('ZCARD', KEYS[1]) >= userQuota then return 0 end\n"
            + "  if totalQuota > 0 and redis.call('ZCARD', KEYS[2]) >= totalQuota then return -1 end\n"
            + "end\n"
            + "redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])\n"
            + "redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])\n"
            + "redis.call('PEXPIRE', KEYS[1], ttl)\n"
            + "redis.call('PEXPIRE', KEYS[2], ttl)\n"
            + "return 1\n";

    /** KEYS: user set, realm set. ARGV: member. */
    static final String RELEASE =
            "redis.call('ZREM', KEYS[1], ARGV[1])\n" + "redis.call('ZREM', KEYS[2], ARGV[1])\n" + "return 1\n";

    /**
     * KEYS: the realm set, then one set per user. ARGV: TTL in ms, then for each user set its lease
     * count and members. Every lease this node holds lapses a TTL from now again; a lease Redis lost
     * (it restarted, or was unreachable when the allocation was granted on local quotas) is added
     * back, even past a quota, since the allocation exists. A user's key that is not a sorted set
     * (written by someone else) is left alone, so that it cannot stop the refresh of the others.
     * Returns how many such keys were skipped.
     */
    static final String REFRESH = NOW + PRUNE
            + "local ttl = tonumber(ARGV[1])\n"
            + "local at = now + ttl\n"
            + "local a = 2\n"
            + "local written = 0\n"
            + "local skipped = 0\n"
            + "for k = 2, #KEYS do\n"
            + "  local n = tonumber(ARGV[a])\n"
            + "  a = a + 1\n"
            + "  local kind = redis.call('TYPE', KEYS[k]).ok\n"
            + "  if kind == 'zset' or kind == 'none' then\n"
            + "    for i = 1, n do\n"
            + "      redis.call('ZADD', KEYS[k], at, ARGV[a + i - 1])\n"
            + "      redis.call('ZADD', KEYS[1], at, ARGV[a + i - 1])\n"
            + "    end\n"
            + "    written = written + n\n"
            + "    prune(KEYS[k])\n"
            + "    redis.call('PEXPIRE', KEYS[k], ttl)\n"
            + "  else\n"
            + "    skipped = skipped + 1\n"
            + "  end\n"
            + "  a = a + n\n"
            + "end\n"
            + "prune(KEYS[1])\n"
            + "redis.call('PEXPIRE', KEYS[1], ttl)\n"
            + "return skipped\n";

    /**
     * KEYS: the node index, this node's hash. ARGV: node id, TTL in ms, then field, value pairs.
     * Registers (or refreshes) this node and drops lapsed ones from the index.
     */
    static final String REGISTER = NOW
            + "local ttl = tonumber(ARGV[2])\n"
            + "redis.call('DEL', KEYS[2])\n"
            + "for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end\n"
            + "redis.call('PEXPIRE', KEYS[2], ttl)\n"
            + "redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])\n"
            + "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)\n"
            + "redis.call('PEXPIRE', KEYS[1], " + MAX_TTL_MS + ")\n"
            + "return 1\n";

    private LeaseScripts() {}
}
