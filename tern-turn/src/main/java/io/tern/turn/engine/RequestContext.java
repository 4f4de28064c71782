package io.tern.turn.engine;

import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunHeaderFlyweight;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.allocation.PendingAnswer;
import io.tern.turn.auth.Credential;
import io.tern.turn.auth.UnauthenticatedRateLimiter;

/**
 * The request being handled: where it came from, the decoded message, the client's allocation,
 * what the {@code Authenticator} found, and how to answer it. One instance per engine, reused for
 * every request (a flyweight), so handlers take one argument instead of a listener, connection and
 * address each.
 */
public final class RequestContext {
    private final ClientEndpoint client = new ClientEndpoint();
    private final StunMessageDecoder message;
    private final Responder responder;
    private final TurnCounters counters;
    private final UnauthenticatedRateLimiter unauthenticatedLimiter;
    private final int[] unknownTypes = new int[StunMessageDecoder.MAX_UNKNOWN];

    private TransportProtocol protocol;
    private long nowNs;
    private long cacheKey;
    private Allocation allocation;
    private boolean fingerprint;
    private Credential credential;
    private byte[] key;
    private boolean sha256Integrity;

    RequestContext(
            StunMessageDecoder message,
            Responder responder,
            TurnCounters counters,
            UnauthenticatedRateLimiter unauthenticatedLimiter) {
        this.message = message;
        this.responder = responder;
        this.counters = counters;
        this.unauthenticatedLimiter = unauthenticatedLimiter;
    }

    RequestContext begin(
            ClientEndpoint from, TransportProtocol protocol, long cacheKey, Allocation allocation, long nowNs) {
        this.client.set(from);
        this.protocol = protocol;
        this.cacheKey = cacheKey;
        this.allocation = allocation;
        this.nowNs = nowNs;
        this.fingerprint = message.fingerprintAttributeOffset() >= 0;
        this.credential = null;
        this.key = null;
        this.sha256Integrity = false;
        return this;
    }

    public ClientEndpoint client() {
        return client;
    }

    /** The transport the request arrived over. */
    public TransportProtocol protocol() {
        return protocol;
    }

    public StunMessageDecoder message() {
        return message;
    }

    public int method() {
        return message.method();
    }

    public long nowNs() {
        return nowNs;
    }

    /** The key of this client in the transaction cache. */
    public long cacheKey() {
        return cacheKey;
    }

    /** The client's allocation on this 5-tuple, or null. */
    public Allocation allocation() {
        return allocation;
    }

    public Credential credential() {
        return credential;
    }

    public byte[] key() {
        return key;
    }

    /** Called by the Authenticator once MESSAGE-INTEGRITY(-SHA256) verified with {@code key}. */
    public void authenticated(Credential credential, byte[] key, boolean sha256Integrity) {
        this.credential = credential;
        this.key = key;
        this.sha256Integrity = sha256Integrity;
    }

    /** Keeps what a later answer to this request needs. */
    public PendingAnswer remember(PendingAnswer answer) {
        StunHeaderFlyweight header = message.header();
        return answer.set(
                method(),
                header.transactionIdHigh(),
                header.transactionIdLow(),
                key,
                sha256Integrity,
                fingerprint,
                cacheKey);
    }

    // ---------------------------------------------------------------------------------------------
    // Answering

    public StunMessageWriter startSuccess() {
        StunHeaderFlyweight header = message.header();
        return responder.start(
                method(), StunClass.SUCCESS_RESPONSE, header.transactionIdHigh(), header.transactionIdLow());
    }

    /** Starts an error answer (counted); add attributes, then {@link #finishSigned} or {@link #finishUnsigned}. */
    public StunMessageWriter startError(int code) {
        counters.error(code);
        StunHeaderFlyweight header = message.header();
        return responder.startError(method(), header.transactionIdHigh(), header.transactionIdLow(), code);
    }

    /** Signs the answer with the request's key and queues it; it is remembered for retransmissions. */
    public void finishSigned() {
        StunHeaderFlyweight header = message.header();
        responder.finishSigned(
                client,
                key,
                sha256Integrity,
                fingerprint,
                cacheKey,
                header.transactionIdHigh(),
                header.transactionIdLow(),
                nowNs);
    }

    public void finishUnsigned() {
        responder.finishUnsigned(client, fingerprint);
    }

    /** An error signed with the request's key: for authenticated requests. */
    public void signedError(int code) {
        startError(code);
        finishSigned();
    }

    /**
     * An unsigned answer that anyone can provoke with a spoofed source address: over UDP it is
     * rate-limited per source IP, so the relay can't be used to reflect traffic. Returns false when
     * it was suppressed.
     */
    public boolean mayAnswerUnauthenticated() {
        if (!client.isStream() && !unauthenticatedLimiter.tryAcquire(client.address(), nowNs)) {
            counters.drop(DropReason.RATE_LIMITED);
            return false;
        }
        return true;
    }

    /**
     * Starts an unsigned error answer (counted) unless the rate limit suppresses it; returns the
     * writer, or null when nothing may be sent.
     */
    public StunMessageWriter startErrorIfAllowed(int code) {
        counters.error(code);
        if (!mayAnswerUnauthenticated()) {
            return null;
        }
        StunHeaderFlyweight header = message.header();
        return responder.startError(method(), header.transactionIdHigh(), header.transactionIdLow(), code);
    }

    /**
     * 420 listing the comprehension-required attributes this server does not know (RFC 8489
     * §6.3.1 step 2); signed when the request was authenticated.
     */
    public void unknownAttributes() {
        int count = message.unknownRequiredCount();
        for (int i = 0; i < count; i++) {
            unknownTypes[i] = message.unknownRequiredType(i);
        }
        startError(ErrorCode.UNKNOWN_ATTRIBUTE).putUnknownAttributes(unknownTypes, count);
        if (key != null) {
            finishSigned();
        } else {
            finishUnsigned();
        }
    }

    /** An unsigned error, rate-limited like a challenge. */
    public void unsignedError(int code) {
        if (startErrorIfAllowed(code) != null) {
            finishUnsigned();
        }
    }
}
