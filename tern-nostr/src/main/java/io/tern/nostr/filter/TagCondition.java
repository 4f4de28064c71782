package io.tern.nostr.filter;

import java.util.Set;

/** A filter's {@code #x} entry: the event must have an {@code x} tag whose first value is one of these. */
public record TagCondition(char letter, Set<String> values) {
    public String name() {
        return String.valueOf(letter);
    }
}
