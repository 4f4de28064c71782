package io.tern.testkit;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The one bounded wait for something a real process or socket does in its own time: poll a
 * condition every {@code poll} until it holds, and fail naming what did not happen once
 * {@code timeout} has passed. Engine tests do not need it: they move a {@link FakeClock}.
 */
public final class Await {
    public static final Duration DEFAULT_POLL = Duration.ofMillis(20);

    /** A condition that may do I/O to find out (read a file, ask an endpoint). */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** A value that is {@code null} until it is ready. */
    @FunctionalInterface
    public interface Probe<T> {
        T get() throws Exception;
    }

    private Await() {}

    public static void await(String what, Duration timeout, Condition condition) throws Exception {
        await(what, timeout, DEFAULT_POLL, condition);
    }

    public static void await(String what, Duration timeout, Duration poll, Condition condition) throws Exception {
        awaitValue(what, timeout, poll, () -> condition.holds() ? Boolean.TRUE : null);
    }

    /** As {@link #await(String, Duration, Duration, Condition)}; a failure adds {@code lastSeen}'s answer. */
    public static void await(
            String what, Duration timeout, Duration poll, Condition condition, Supplier<String> lastSeen)
            throws Exception {
        awaitValue(what, timeout, poll, () -> condition.holds() ? Boolean.TRUE : null, lastSeen);
    }

    /** The first non-null value {@code probe} returns within {@code timeout}. */
    public static <T> T awaitValue(String what, Duration timeout, Duration poll, Probe<T> probe) throws Exception {
        return awaitValue(what, timeout, poll, probe, () -> null);
    }

    /** As {@link #awaitValue(String, Duration, Duration, Probe)}; a failure adds {@code lastSeen}'s answer. */
    public static <T> T awaitValue(
            String what, Duration timeout, Duration poll, Probe<T> probe, Supplier<String> lastSeen) throws Exception {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true) {
            T value = probe.get();
            if (value != null) {
                return value;
            }
            if (System.nanoTime() - deadlineNs >= 0) {
                String seen = lastSeen.get();
                throw new AssertionError(what + " did not happen within " + timeout.toMillis() + " ms"
                        + (seen == null ? "" : "; last seen: " + seen));
            }
            Thread.sleep(poll);
        }
    }
}
