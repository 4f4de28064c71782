package io.tern.netty.loop;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one way an adapter drives an engine on its event loop: after every input, {@link #drain()}
 * carries out the engine's queued outputs until only a deadline is left, then one timer is armed
 * for that deadline; when it fires, the engine is told the time and drained again. Time comes from
 * the loop's {@link LoopClock}, read once per turn.
 *
 * <p>One rule decides when the timer moves: only when the engine's deadline comes more than
 * {@link #SLACK_NS} before the armed one. A later deadline keeps the armed timer, which fires
 * early, finds nothing due and re-arms; a slightly earlier one is served up to the slack late.
 * Neither costs a new scheduled task, so an input that nudges the deadline allocates nothing.
 *
 * <p>A drain asked for from inside a drain (an output whose handling is a new input) is not run
 * inside it: the running drain goes round once more. Used only from the loop's thread.
 */
public final class EngineLoop {
    /** How late a deadline may be served rather than re-arm the timer for it. */
    public static final long SLACK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What the adapter does for its engine. */
    public interface Driver {
        /**
         * Carries out every output the engine has queued (and feeds it any answer they produced),
         * and returns its next deadline on the loop clock, {@link Long#MAX_VALUE} for none.
         */
        long drainOutputs();

        /** The armed deadline has come: tell the engine the time. Its outputs are drained after. */
        void onTimeout(long nowNs);
    }

    private final LoopClock clock;
    private final Driver driver;
    private final Runnable onTimer = this::onTimer;
    private ScheduledFuture<?> timer;
    private long timerDeadlineNs = Long.MAX_VALUE;
    private boolean draining;
    private boolean drainAgain;
    private boolean closed;

    public EngineLoop(LoopClock clock, Driver driver) {
        this.clock = clock;
        this.driver = driver;
    }

    /** This turn's time, for the inputs the adapter gives the engine. */
    public long nowNs() {
        return clock.nowNs();
    }

    public LoopClock clock() {
        return clock;
    }

    /** Call after every input: drains the engine's outputs, then arms the timer for its deadline. */
    public void drain() {
        if (draining) {
            drainAgain = true;
            return;
        }
        draining = true;
        long deadlineNs;
        try {
            do {
                drainAgain = false;
                deadlineNs = driver.drainOutputs();
            } while (drainAgain);
        } finally {
            draining = false;
        }
        arm(deadlineNs);
    }

    /** The deadline the timer is armed for, {@link Long#MAX_VALUE} for none (for tests). */
    public long armedDeadlineNs() {
        return timerDeadlineNs;
    }

    /** Cancels the timer; none is armed again. Outputs may still be drained. */
    public void close() {
        closed = true;
        cancel();
    }

    private void arm(long deadlineNs) {
        if (closed || deadlineNs == Long.MAX_VALUE || deadlineNs >= timerDeadlineNs - SLACK_NS) {
            return;
        }
        cancel();
        timerDeadlineNs = deadlineNs;
        timer = clock.loop().schedule(onTimer, clock.delayUntilNs(deadlineNs), TimeUnit.NANOSECONDS);
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        timerDeadlineNs = Long.MAX_VALUE;
    }

    private void onTimer() {
        timer = null;
        timerDeadlineNs = Long.MAX_VALUE;
        if (closed) {
            return;
        }
        driver.onTimeout(clock.readNs());
        drain();
    }
}
