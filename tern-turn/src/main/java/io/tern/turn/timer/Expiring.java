package io.tern.turn.timer;

/**
 * Something the engine's {@link TimerWheel} expires: an allocation, a permission, a channel
 * binding, a peer connection. It carries its own place in the wheel, so that scheduling,
 * cancelling and rescheduling it take no map lookup and allocate nothing.
 */
public abstract class Expiring {
    long deadlineNs;
    int slot = -1;
    int index;

    /** When it expires; meaningful while {@link #scheduled()}. */
    public long deadlineNs() {
        return deadlineNs;
    }

    public boolean scheduled() {
        return slot >= 0;
    }
}
