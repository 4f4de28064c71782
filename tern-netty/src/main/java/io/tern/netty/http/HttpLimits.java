package io.tern.netty.http;

/**
 * Every bound the HTTP server enforces. Past a bound the answer is a status (429 for one client
 * over its share, 503 for the server over its total, 408/414/431/413 for a request) or a closed
 * connection, and each refusal is counted in {@link HttpCounters}.
 *
 * @param maxConnections          connections open at once; past it new ones are closed
 * @param maxConnectionsPerIp     the same, from one client IP (a CDN node or a NAT is one IP)
 * @param maxHeldRequests         requests held at once (deferred or streaming); past it 503
 * @param maxHeldRequestsPerIp    the same, from one client IP; past it 429
 * @param maxUriBytes             request line (HTTP/1.1) or {@code :path} (HTTP/2); past it 414
 * @param maxHeaderBytes          request headers; past it 431 (HTTP/2: the advertised header list size)
 * @param maxBodyBytes            request body; past it 413
 * @param maxStreamsPerConnection concurrent HTTP/2 streams advertised to the client
 * @param maxPipelinedRequests    HTTP/1.1 requests queued behind one that is being answered; past it the
 *                                connection is closed
 * @param idleTimeoutMs           a connection with no request in progress that reads and writes nothing
 *                                for this long is closed
 * @param requestTimeoutMs        time from a request's first byte to its last (slow-loris); past it 408
 *                                and close (HTTP/1.1) or a reset stream (HTTP/2)
 * @param slowReaderTimeoutMs     a connection whose client stops reading, so that its write buffer stays
 *                                full this long, is closed
 * @param tlsHandshakeTimeoutMs   a TLS handshake may take this long
 */
public record HttpLimits(
        int maxConnections,
        int maxConnectionsPerIp,
        int maxHeldRequests,
        int maxHeldRequestsPerIp,
        int maxUriBytes,
        int maxHeaderBytes,
        int maxBodyBytes,
        int maxStreamsPerConnection,
        int maxPipelinedRequests,
        long idleTimeoutMs,
        long requestTimeoutMs,
        long slowReaderTimeoutMs,
        long tlsHandshakeTimeoutMs) {

    /** Defaults for an origin: a viewer holds two or three requests, a cache node in front many more. */
    public static final HttpLimits DEFAULTS =
            new HttpLimits(10_000, 256, 20_000, 512, 8192, 16_384, 65_536, 256, 16, 60_000, 10_000, 30_000, 10_000);

    public HttpLimits {
        positive("maxConnections", maxConnections);
        positive("maxConnectionsPerIp", maxConnectionsPerIp);
        positive("maxHeldRequests", maxHeldRequests);
        positive("maxHeldRequestsPerIp", maxHeldRequestsPerIp);
        atLeast("maxUriBytes", maxUriBytes, 64);
        atLeast("maxHeaderBytes", maxHeaderBytes, 256);
        atLeast("maxBodyBytes", maxBodyBytes, 0);
        positive("maxStreamsPerConnection", maxStreamsPerConnection);
        atLeast("maxPipelinedRequests", maxPipelinedRequests, 0);
        positive("idleTimeoutMs", idleTimeoutMs);
        positive("requestTimeoutMs", requestTimeoutMs);
        positive("slowReaderTimeoutMs", slowReaderTimeoutMs);
        positive("tlsHandshakeTimeoutMs", tlsHandshakeTimeoutMs);
    }

    /** A builder starting from these limits. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Changes some limits and keeps the rest; {@link #build()} checks them all. */
    public static final class Builder {
        private int maxConnections;
        private int maxConnectionsPerIp;
        private int maxHeldRequests;
        private int maxHeldRequestsPerIp;
        private int maxUriBytes;
        private int maxHeaderBytes;
        private int maxBodyBytes;
        private int maxStreamsPerConnection;
        private int maxPipelinedRequests;
        private long idleTimeoutMs;
        private long requestTimeoutMs;
        private long slowReaderTimeoutMs;
        private long tlsHandshakeTimeoutMs;

        private Builder(HttpLimits from) {
            maxConnections = from.maxConnections;
            maxConnectionsPerIp = from.maxConnectionsPerIp;
            maxHeldRequests = from.maxHeldRequests;
            maxHeldRequestsPerIp = from.maxHeldRequestsPerIp;
            maxUriBytes = from.maxUriBytes;
            maxHeaderBytes = from.maxHeaderBytes;
            maxBodyBytes = from.maxBodyBytes;
            maxStreamsPerConnection = from.maxStreamsPerConnection;
            maxPipelinedRequests = from.maxPipelinedRequests;
            idleTimeoutMs = from.idleTimeoutMs;
            requestTimeoutMs = from.requestTimeoutMs;
            slowReaderTimeoutMs = from.slowReaderTimeoutMs;
            tlsHandshakeTimeoutMs = from.tlsHandshakeTimeoutMs;
        }

        public Builder connections(int total, int perIp) {
            maxConnections = total;
            maxConnectionsPerIp = perIp;
            return this;
        }

        public Builder heldRequests(int total, int perIp) {
            maxHeldRequests = total;
            maxHeldRequestsPerIp = perIp;
            return this;
        }

        public Builder requestSizes(int uriBytes, int headerBytes, int bodyBytes) {
            maxUriBytes = uriBytes;
            maxHeaderBytes = headerBytes;
            maxBodyBytes = bodyBytes;
            return this;
        }

        public Builder streamsPerConnection(int streams) {
            maxStreamsPerConnection = streams;
            return this;
        }

        public Builder pipelinedRequests(int requests) {
            maxPipelinedRequests = requests;
            return this;
        }

        public Builder timeouts(long idleMs, long requestMs, long slowReaderMs) {
            idleTimeoutMs = idleMs;
            requestTimeoutMs = requestMs;
            slowReaderTimeoutMs = slowReaderMs;
            return this;
        }

        public Builder tlsHandshakeTimeoutMs(long ms) {
            tlsHandshakeTimeoutMs = ms;
            return this;
        }

        public HttpLimits build() {
            return new HttpLimits(
                    maxConnections,
                    maxConnectionsPerIp,
                    maxHeldRequests,
                    maxHeldRequestsPerIp,
                    maxUriBytes,
                    maxHeaderBytes,
                    maxBodyBytes,
                    maxStreamsPerConnection,
                    maxPipelinedRequests,
                    idleTimeoutMs,
                    requestTimeoutMs,
                    slowReaderTimeoutMs,
                    tlsHandshakeTimeoutMs);
        }
    }

    private static void positive(String name, long value) {
        atLeast(name, value, 1);
    }

    private static void atLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
    }
}
