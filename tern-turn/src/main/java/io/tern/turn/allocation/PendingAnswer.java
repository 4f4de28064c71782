package io.tern.turn.allocation;

/**
 * What it takes to answer a request later, once the transport has reported back (a relay socket
 * bound, a peer connected): the request's method and transaction ID, and the key and integrity
 * flavour its answer is signed with.
 */
public final class PendingAnswer {
    int method;
    int tidHigh;
    long tidLow;
    byte[] key;
    boolean sha256Integrity;
    boolean fingerprint;
    long cacheKey;

    public PendingAnswer set(
            int method,
            int tidHigh,
            long tidLow,
            byte[] key,
            boolean sha256Integrity,
            boolean fingerprint,
            long cacheKey) {
        this.method = method;
        this.tidHigh = tidHigh;
        this.tidLow = tidLow;
        this.key = key;
        this.sha256Integrity = sha256Integrity;
        this.fingerprint = fingerprint;
        this.cacheKey = cacheKey;
        return this;
    }

    public int method() {
        return method;
    }

    public int tidHigh() {
        return tidHigh;
    }

    public long tidLow() {
        return tidLow;
    }

    public byte[] key() {
        return key;
    }

    public boolean sha256Integrity() {
        return sha256Integrity;
    }

    public boolean fingerprint() {
        return fingerprint;
    }

    public long cacheKey() {
        return cacheKey;
    }

    /** Whether a retransmission of the request this answers is the one with this transaction ID. */
    public boolean answers(int tidHigh, long tidLow) {
        return this.tidHigh == tidHigh && this.tidLow == tidLow;
    }
}
