package io.tern.turn.engine;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageWriter;
import io.tern.turn.allocation.PendingAnswer;
import io.tern.turn.transaction.TransactionCache;

/**
 * Writes the engine's STUN messages into the command queue's arena and queues them for a client:
 * SOFTWARE first, MESSAGE-INTEGRITY(-SHA256) and FINGERPRINT last, signed answers remembered in
 * the transaction cache for retransmissions (RFC 8489 §6.3.1).
 */
public final class Responder {
    private final StunMessageWriter writer;
    private final CommandQueue out;
    private final TransactionCache transactions;
    private final byte[] software;
    private final boolean alwaysFingerprint;
    private int messageOffset;

    Responder(
            StunMessageWriter writer,
            CommandQueue out,
            TransactionCache transactions,
            byte[] software,
            boolean alwaysFingerprint) {
        this.writer = writer;
        this.out = out;
        this.transactions = transactions;
        this.software = software;
        this.alwaysFingerprint = alwaysFingerprint;
    }

    /** Starts a message in the arena; add attributes to the returned writer, then finish it. */
    public StunMessageWriter start(int method, int messageClass, int tidHigh, long tidLow) {
        messageOffset = out.reserve(TurnEngine.MAX_MESSAGE_BYTES);
        writer.start(out.arena(), messageOffset, StunClass.messageType(method, messageClass), tidHigh, tidLow);
        if (software != null && messageClass != StunClass.INDICATION) {
            writer.putBytes(AttributeType.SOFTWARE, software);
        }
        return writer;
    }

    /** A started error answer with its ERROR-CODE. */
    public StunMessageWriter startError(int method, int tidHigh, long tidLow, int code) {
        start(method, StunClass.ERROR_RESPONSE, tidHigh, tidLow);
        return writer.putErrorCode(code);
    }

    /** Signs the started answer, remembers it for retransmissions of its request, and queues it. */
    public void finishSigned(
            ClientEndpoint to,
            byte[] key,
            boolean sha256Integrity,
            boolean fingerprint,
            long cacheKey,
            int tidHigh,
            long tidLow,
            long nowNs) {
        if (sha256Integrity) {
            writer.putMessageIntegritySha256(key);
        } else {
            writer.putMessageIntegrity(key);
        }
        if (fingerprint || alwaysFingerprint) {
            writer.putFingerprint();
        }
        transactions.put(cacheKey, tidHigh, tidLow, out.arena(), messageOffset, writer.length(), nowNs);
        out.sendToClient(to, writer.length());
    }

    /** Finishes a started answer to a deferred request. */
    public void finishSigned(ClientEndpoint to, PendingAnswer answer, long nowNs) {
        finishSigned(
                to,
                answer.key(),
                answer.sha256Integrity(),
                answer.fingerprint(),
                answer.cacheKey(),
                answer.tidHigh(),
                answer.tidLow(),
                nowNs);
    }

    /** Queues the started message unsigned (Binding answers, challenges, indications). */
    public void finishUnsigned(ClientEndpoint to, boolean fingerprint) {
        if (fingerprint || alwaysFingerprint) {
            writer.putFingerprint();
        }
        out.sendToClient(to, writer.length());
    }
}
