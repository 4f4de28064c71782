package io.tern.nostr.engine;

import io.tern.nostr.message.ClientMessage;

/**
 * A client message as {@link MessageChecker} leaves it for the engine: decoded, and the event of an
 * EVENT or AUTH checked (its id is the hash of its fields, its signature verifies). The engine
 * only routes it: it still applies its own checks first (authentication, rate limits, policy), so
 * the client gets the same answer as if the engine had checked the signature itself.
 *
 * @param eventProblem why the event's id or signature is wrong (with its {@code invalid:} prefix),
 *     or null when it is right or the message carries no event
 * @param failed the checker hit a bug of its own; the engine answers {@code error:} and counts it
 */
public record CheckedMessage(ClientMessage message, String eventProblem, boolean failed) {
    static CheckedMessage of(ClientMessage message, String eventProblem) {
        return new CheckedMessage(message, eventProblem, false);
    }
}
