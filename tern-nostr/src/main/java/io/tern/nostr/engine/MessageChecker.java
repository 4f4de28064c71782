package io.tern.nostr.engine;

import io.tern.nostr.crypto.SchnorrVerifier;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventHasher;
import io.tern.nostr.message.ClientMessage;
import io.tern.nostr.message.ClientMessageDecoder;
import io.tern.nostr.message.Prefix;

/**
 * The costly, stateless half of taking a message: decoding it, hashing its event's fields and
 * verifying the BIP-340 signature (about 80% of an EVENT's CPU). It shares nothing with the
 * engine, so an adapter runs one per connection thread and hands the engine a {@link
 * CheckedMessage}, leaving the engine's one thread to route ({@link
 * NostrEngine#onMessage(long, CheckedMessage, long)}). Not thread-safe: one instance per thread.
 */
public final class MessageChecker {
    private final int maxMessageBytes;
    private final SchnorrVerifier verifier;
    private final ClientMessageDecoder decoder;
    private final EventHasher hasher = new EventHasher();

    public MessageChecker(NostrConfig config, SchnorrVerifier verifier) {
        this.maxMessageBytes = config.maxMessageBytes();
        this.verifier = verifier;
        this.decoder = new ClientMessageDecoder(config.maxFilters(), config.maxSubscriptionIdLength());
    }

    /** One complete text message, as UTF-8 (the WebSocket layer has validated it). Never throws. */
    public CheckedMessage check(byte[] utf8, int offset, int length) {
        if (length > maxMessageBytes) {
            return CheckedMessage.of(
                    new ClientMessage.Invalid(
                            ClientMessage.Answer.NOTICE,
                            null,
                            Prefix.INVALID.message("message too large (at most " + maxMessageBytes + " bytes)")),
                    null);
        }
        try {
            ClientMessage m = decoder.decode(utf8, offset, length);
            return switch (m) {
                case ClientMessage.EventMessage em -> CheckedMessage.of(m, problem(em.event()));
                case ClientMessage.Auth auth -> CheckedMessage.of(m, problem(auth.event()));
                default -> CheckedMessage.of(m, null);
            };
        } catch (RuntimeException e) {
            // A bug must not take the connection's thread down: the engine answers and counts it.
            return new CheckedMessage(null, null, true);
        }
    }

    private String problem(Event e) {
        if (!hasher.idMatches(e)) {
            return Prefix.INVALID.message("event id does not match the event's hash");
        }
        if (!verifier.verify(e.sigBytes(), e.idBytes(), e.pubkeyBytes())) {
            return Prefix.INVALID.message("signature does not verify");
        }
        return null;
    }
}
