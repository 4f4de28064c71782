package io.tern.turn.redirect;

import java.util.Objects;

/**
 * The alternates the engines redirect to now: set by the adapter (from static options or a fleet
 * registry), read by every engine once per Allocate. The engine never asks anyone for them; it
 * reads the last value it was given.
 */
public final class Alternates {
    private volatile AlternateServers current;

    public Alternates() {
        this(AlternateServers.NONE);
    }

    public Alternates(AlternateServers initial) {
        this.current = Objects.requireNonNull(initial, "initial");
    }

    public AlternateServers current() {
        return current;
    }

    public void set(AlternateServers alternates) {
        this.current = Objects.requireNonNull(alternates, "alternates");
    }
}
