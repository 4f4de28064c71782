package io.tern.netty.loop;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The time of one event-loop turn, read from the loop's ticker once, at the first question of a
 * turn, and forgotten by a task that runs after the turn's I/O. Every input of a turn (a batch of
 * datagrams read with one recvmmsg, the messages of one TCP read, a timer) is stamped with the same
 * time, and a test that gives the loop a fake ticker moves every adapter's time with it.
 *
 * <p>Every time an engine of this loop is given comes from here: the ticker counts from its own
 * origin, so {@link System#nanoTime()} is not comparable with it. Used only from the loop's thread.
 */
public final class LoopClock {
    /** The shared clock of each loop, for adapters that do not own their loop (see {@link #of}). */
    private static final FastThreadLocal<LoopClock> SHARED = new FastThreadLocal<>();

    private final EventLoop loop;
    private final Runnable endOfTurn = this::endOfTurn;
    private long nowNs;
    private boolean valid;

    public LoopClock(EventLoop loop) {
        this.loop = loop;
    }

    /** The clock shared by every adapter of {@code loop} that asks for it. Call on the loop's thread. */
    public static LoopClock of(EventLoop loop) {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException("LoopClock.of must be called on the loop's thread");
        }
        LoopClock clock = SHARED.get();
        if (clock == null || clock.loop != loop) {
            clock = new LoopClock(loop);
            SHARED.set(clock);
        }
        return clock;
    }

    public EventLoop loop() {
        return loop;
    }

    /** This turn's time on the loop's ticker, in nanoseconds. */
    public long nowNs() {
        if (!valid) {
            nowNs = loop.ticker().nanoTime();
            valid = true;
            // Tasks run after the current turn's I/O, so the next turn reads the ticker afresh.
            loop.execute(endOfTurn);
        }
        return nowNs;
    }

    /**
     * Reads the ticker afresh, for a timer that has just fired: its deadline has come, which a time
     * read earlier in this turn (by a task that ran before it) may not show yet.
     */
    public long readNs() {
        valid = false;
        return nowNs();
    }

    /**
     * Nanoseconds from the ticker's present, read afresh, until {@code deadlineNs}; 0 once it has
     * passed. A timer is scheduled from here, not from this turn's time: that would add the time
     * the turn has taken so far to every timer, which under load is tens of milliseconds.
     */
    public long delayUntilNs(long deadlineNs) {
        return Math.max(0, deadlineNs - loop.ticker().nanoTime());
    }

    private void endOfTurn() {
        valid = false;
    }
}
