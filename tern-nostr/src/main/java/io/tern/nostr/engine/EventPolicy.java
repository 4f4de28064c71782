package io.tern.nostr.engine;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.KindClass;
import io.tern.nostr.message.Prefix;

/** The relay's rules for an incoming event beyond its form: size, time window, kind, expiry. */
final class EventPolicy {
    private final NostrConfig config;

    EventPolicy(NostrConfig config) {
        this.config = config;
    }

    /** The OK message refusing {@code e} (with its prefix), or null when it may be accepted. */
    String problem(Event e, long nowSeconds) {
        if (e.tags().size() > config.maxEventTags()) {
            return Prefix.INVALID.message("too many tags (at most " + config.maxEventTags() + ")");
        }
        if (e.kind() == KindClass.CLIENT_AUTH) {
            return Prefix.INVALID.message("kind 22242 is only accepted in an AUTH message");
        }
        if (e.createdAt() > nowSeconds + config.maxFutureSeconds()) {
            return Prefix.INVALID.message(
                    "created_at is more than " + config.maxFutureSeconds() + " seconds in the future");
        }
        if (config.maxPastSeconds() > 0 && e.createdAt() < nowSeconds - config.maxPastSeconds()) {
            return Prefix.INVALID.message(
                    "created_at is more than " + config.maxPastSeconds() + " seconds in the past");
        }
        if (e.kindClass() == KindClass.EPHEMERAL && e.createdAt() < nowSeconds - config.maxEphemeralAgeSeconds()) {
            return Prefix.INVALID.message(
                    "ephemeral event is more than " + config.maxEphemeralAgeSeconds() + " seconds old");
        }
        if (config.nip40() && e.isExpiredAt(nowSeconds)) {
            return Prefix.INVALID.message("event has expired");
        }
        return null;
    }
}
