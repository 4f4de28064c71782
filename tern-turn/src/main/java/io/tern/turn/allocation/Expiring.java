package io.tern.turn.allocation;

/**
 * Something the engine's timer wheel expires: an allocation, a permission or a channel binding.
 * It remembers its wheel timer so that a refresh can cancel and reschedule it.
 */
public abstract class Expiring {
    private long expiresAtNs;
    private long timerId = -1;

    public long expiresAtNs() {
        return expiresAtNs;
    }

    public void expiresAtNs(long expiresAtNs) {
        this.expiresAtNs = expiresAtNs;
    }

    public long timerId() {
        return timerId;
    }

    public void timerId(long timerId) {
        this.timerId = timerId;
    }
}
