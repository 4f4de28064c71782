package io.tern.netty.http;

import io.netty.util.AsciiString;
import java.time.Duration;

/**
 * {@code Cache-Control} values for an origin behind browsers and CDNs. LL-HLS objects fall in
 * three groups: parts, segments and init segments never change once published
 * ({@link #immutable()}); a blocking reload names the part it waits for, so its answer can be
 * cached like a short-lived object ({@link #maxAge}); a plain playlist reload must expire before
 * the next part appears ({@link #maxAgeBelow}).
 */
public final class CacheControl {
    private static final long YEAR_SECONDS = 365L * 24 * 3600;
    private static final CacheControl IMMUTABLE = new CacheControl("public, max-age=" + YEAR_SECONDS + ", immutable");
    private static final CacheControl NO_CACHE = new CacheControl("no-cache");
    private static final CacheControl NO_STORE = new CacheControl("no-store");

    private final AsciiString value;

    private CacheControl(String value) {
        this.value = AsciiString.cached(value);
    }

    /** An object that never changes: cached for a year, never revalidated. */
    public static CacheControl immutable() {
        return IMMUTABLE;
    }

    /** Shared caches may keep it for {@code seconds} (0: they must revalidate, but may still collapse requests). */
    public static CacheControl maxAge(long seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("max-age must not be negative: " + seconds);
        }
        return new CacheControl("public, max-age=" + seconds);
    }

    /**
     * The longest whole-second max-age strictly shorter than {@code lifetime}: a playlist that is
     * replaced every {@code lifetime} is never served stale for a full period. Below one second this
     * is {@code max-age=0}.
     */
    public static CacheControl maxAgeBelow(Duration lifetime) {
        long ms = lifetime.toMillis();
        if (ms <= 0) {
            throw new IllegalArgumentException("lifetime must be positive: " + lifetime);
        }
        return maxAge((ms - 1) / 1000);
    }

    /** May be stored, but must be revalidated on every use. */
    public static CacheControl noCache() {
        return NO_CACHE;
    }

    /** Must not be stored anywhere (API answers, errors). */
    public static CacheControl noStore() {
        return NO_STORE;
    }

    /** The header value. */
    public AsciiString value() {
        return value;
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
