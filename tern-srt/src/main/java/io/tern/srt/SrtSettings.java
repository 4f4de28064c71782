package io.tern.srt;

import io.tern.srt.crypto.PassphraseKdf;

/**
 * The bounds and timings of an SRT endpoint. Buffers are sized from latency × bitrate, so a
 * session holds what its latency budget needs and no more, under a hard cap.
 *
 * @param latencyMs this side's receive latency (TSBPD delay); the peer's value can raise it
 * @param maxBitrateBps the highest stream bitrate the receive buffer must absorb
 * @param maxBufferPackets the hard cap on any session's receive or send ring
 * @param maxSessions sessions in total (listener)
 * @param maxSessionsPerIp sessions from one IP address (listener)
 * @param idleTimeoutMs a session that receives nothing for this long is closed (libsrt: 5 s)
 * @param connectTimeoutMs a caller gives up a handshake after this long (libsrt: 3 s)
 * @param minPeerVersion the oldest SRT version accepted (HSREQ's version field)
 */
public record SrtSettings(
        int latencyMs,
        long maxBitrateBps,
        int maxBufferPackets,
        int maxSessions,
        int maxSessionsPerIp,
        int idleTimeoutMs,
        int connectTimeoutMs,
        int minPeerVersion) {
    public static final int SRT_VERSION = 0x010501;
    public static final int MTU = 1500;
    public static final int PAYLOAD_BYTES = 1316;
    // The defaults and bounds the origin's options read, so each is written once.
    public static final int DEFAULT_LATENCY_MS = 120;
    public static final int MIN_LATENCY_MS = 20;
    public static final int MAX_LATENCY_MS = 10_000;
    public static final int DEFAULT_MAX_SESSIONS = 1000;

    public static SrtSettings defaults() {
        return new SrtSettings(DEFAULT_LATENCY_MS, 50_000_000L, 8192, DEFAULT_MAX_SESSIONS, 16, 5000, 3000, 0x010300);
    }

    public SrtSettings {
        require(latencyMs >= MIN_LATENCY_MS && latencyMs <= MAX_LATENCY_MS, "latencyMs", latencyMs);
        require(maxBitrateBps >= 100_000, "maxBitrateBps", maxBitrateBps);
        require(
                maxBufferPackets >= 64 && Integer.bitCount(maxBufferPackets) == 1,
                "maxBufferPackets",
                maxBufferPackets);
        require(maxSessions >= 1, "maxSessions", maxSessions);
        require(maxSessionsPerIp >= 1, "maxSessionsPerIp", maxSessionsPerIp);
        require(idleTimeoutMs >= 1000, "idleTimeoutMs", idleTimeoutMs);
        require(connectTimeoutMs >= 100, "connectTimeoutMs", connectTimeoutMs);
    }

    private static void require(boolean ok, String name, long value) {
        if (!ok) {
            throw new IllegalArgumentException("invalid SRT setting " + name + "=" + value);
        }
    }

    public SrtSettings withLatencyMs(int ms) {
        return new SrtSettings(
                ms,
                maxBitrateBps,
                maxBufferPackets,
                maxSessions,
                maxSessionsPerIp,
                idleTimeoutMs,
                connectTimeoutMs,
                minPeerVersion);
    }

    public SrtSettings withLimits(int sessions, int perIp) {
        return new SrtSettings(
                latencyMs,
                maxBitrateBps,
                maxBufferPackets,
                sessions,
                perIp,
                idleTimeoutMs,
                connectTimeoutMs,
                minPeerVersion);
    }

    public SrtSettings withMaxBitrate(long bps, int maxPackets) {
        return new SrtSettings(
                latencyMs,
                bps,
                maxPackets,
                maxSessions,
                maxSessionsPerIp,
                idleTimeoutMs,
                connectTimeoutMs,
                minPeerVersion);
    }

    /**
     * Ring size for a negotiated latency: packets of {@link #PAYLOAD_BYTES} arriving at {@link
     * #maxBitrateBps} over the latency plus a second of retransmission slack, a power of two, at
     * least 256, at most {@link #maxBufferPackets}.
     */
    public int bufferPackets(int negotiatedLatencyMs) {
        long bits = maxBitrateBps * (negotiatedLatencyMs + 1000L) / 1000;
        long packets = bits / (8L * PAYLOAD_BYTES) + 1;
        int n = 256;
        while (n < packets && n < maxBufferPackets) {
            n <<= 1;
        }
        return Math.min(n, maxBufferPackets);
    }

    static void checkPassphrase(String passphrase) {
        String problem = PassphraseKdf.validate(passphrase);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }
}
