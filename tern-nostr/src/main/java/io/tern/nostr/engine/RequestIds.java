package io.tern.nostr.engine;

/** Store request ids: one sequence for writes, queries and counts, so a completion names exactly one. */
final class RequestIds {
    private long next = 1;

    long next() {
        return next++;
    }
}
