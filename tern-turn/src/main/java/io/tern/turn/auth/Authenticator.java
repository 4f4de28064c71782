package io.tern.turn.auth;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.attribute.PasswordAlgorithms;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.engine.RequestContext;
import io.tern.turn.engine.TurnCounters;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.List;

/**
 * The long-term credential mechanism (RFC 8489 §9.2) for every TURN request. On success the
 * request context holds the credential and key its answer is signed with; otherwise the request
 * has been answered (400, 401, 438, 441) and must not be handled further.
 */
public final class Authenticator {
    private static final int MAX_USERNAME_BYTES = 513;

    private final CredentialStore credentials;
    private final NonceService nonces;
    private final MessageIntegrity integrity;
    private final InstantSource wallClock;
    private final TurnCounters counters;
    private final byte[] usernameBytes = new byte[MAX_USERNAME_BYTES];

    /**
     * @param wallClock the time REST usernames' expiry and nonces are checked against; the only
     *                  wall-clock reading of the engine
     */
    public Authenticator(
            CredentialStore credentials,
            NonceService nonces,
            MessageIntegrity integrity,
            InstantSource wallClock,
            TurnCounters counters) {
        this.credentials = credentials;
        this.nonces = nonces;
        this.integrity = integrity;
        this.wallClock = wallClock;
        this.counters = counters;
    }

    /** Returns true when the request is authenticated; else it has been answered. */
    public boolean authenticate(RequestContext request) {
        StunMessageDecoder message = request.message();
        int integrityOffset = message.integrityAttributeOffset();
        int sha256Offset = message.integritySha256AttributeOffset();
        // §9.2.4 step 1: a request without integrity is challenged.
        if (integrityOffset < 0 && sha256Offset < 0) {
            challenge(request, ErrorCode.UNAUTHENTICATED);
            return false;
        }
        // Step 2: integrity without USERNAME (or USERHASH), REALM or NONCE is 400.
        boolean hasUsername = message.has(AttributeType.USERNAME) || message.has(AttributeType.USERHASH);
        if (!hasUsername || !message.has(AttributeType.REALM) || !message.has(AttributeType.NONCE)) {
            request.unsignedError(ErrorCode.BAD_REQUEST);
            return false;
        }
        // Step 3: a nonce this server did not issue to this client, or that has lapsed, is 438.
        int nonceOffset = message.valueOffset(AttributeType.NONCE);
        if (nonces.check(
                        message.buffer(),
                        nonceOffset,
                        message.valueLength(AttributeType.NONCE),
                        request.client().address(),
                        wallClock.millis())
                != NonceService.VALID) {
            challenge(request, ErrorCode.STALE_NONCE);
            return false;
        }
        // Steps 4-5: the password algorithm must be one offered, its list an echo of the offer.
        int algorithm = PasswordAlgorithms.chosen(message);
        if (algorithm == PasswordAlgorithms.INVALID) {
            request.unsignedError(ErrorCode.BAD_REQUEST);
            return false;
        }
        // Step 6: an unknown username, or integrity that does not verify, is 401.
        String username = username(message);
        if (username == null) {
            counters.authFailure();
            challenge(request, ErrorCode.UNAUTHENTICATED);
            return false;
        }
        // With both present, MESSAGE-INTEGRITY-SHA256 is the one that counts.
        boolean sha256Integrity = sha256Offset >= 0;
        int attributeOffset = sha256Integrity ? sha256Offset : integrityOffset;
        // Looked up afresh on every request, so an expired REST username can't keep refreshing.
        List<Credential> candidates = credentials.lookup(username, wallClock.millis() / 1000);
        for (Credential candidate : candidates) {
            byte[] key = algorithm == PasswordAlgorithms.SHA256 ? candidate.keySha256() : candidate.keyMd5();
            if (key != null && integrity.verify(message.buffer(), message.offset(), attributeOffset, key)) {
                request.authenticated(candidate, key, sha256Integrity);
                break;
            }
        }
        if (request.key() == null) {
            counters.authFailure();
            challenge(request, ErrorCode.UNAUTHENTICATED);
            return false;
        }
        // RFC 8656 §5: later requests of an allocation must use the credential that created it.
        Allocation allocation = request.allocation();
        if (allocation != null && !allocation.credential().username().equals(username)) {
            request.signedError(ErrorCode.WRONG_CREDENTIALS);
            return false;
        }
        return true;
    }

    private String username(StunMessageDecoder message) {
        int length = message.copyValue(AttributeType.USERNAME, usernameBytes);
        if (length >= 0) {
            return new String(usernameBytes, 0, length, StandardCharsets.UTF_8);
        }
        length = message.copyValue(AttributeType.USERHASH, usernameBytes);
        if (length == 32) {
            return credentials.usernameForHash(usernameBytes, length);
        }
        return null;
    }

    /** 401 or 438 with REALM, a fresh NONCE and the offered algorithms, rate-limited per source against reflection. */
    private void challenge(RequestContext request, int code) {
        StunMessageWriter writer = request.startErrorIfAllowed(code);
        if (writer == null) {
            return;
        }
        writer.putBytes(AttributeType.REALM, credentials.realm());
        writer.putBytes(AttributeType.NONCE, nonces.issue(request.client().address(), wallClock.millis()));
        writer.putBytes(AttributeType.PASSWORD_ALGORITHMS, PasswordAlgorithms.offer());
        request.finishUnsigned();
    }
}
