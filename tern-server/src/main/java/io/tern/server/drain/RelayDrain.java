package io.tern.server.drain;

import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The relay's drain, once started (SIGUSR1, or SIGTERM with {@code drain-on-term}): on a daemon
 * timer it hands the engines the {@link AlternateSource}'s latest alternates, and runs
 * {@code onDrained} once when allocations have fallen to {@code drain-min-allocations}.
 */
public final class RelayDrain implements AutoCloseable {
    private final ScheduledExecutorService timer;

    private RelayDrain(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Whether a draining node is done: its allocations are at most {@code minAllocations}. */
    public static boolean exitDue(boolean draining, long activeAllocations, int minAllocations) {
        return draining && activeAllocations <= minAllocations;
    }

    /**
     * @param refreshAlternates hands the engines the source's current alternates
     * @param periodMs          how often both are looked at
     */
    public static RelayDrain start(
            BooleanSupplier draining,
            LongSupplier activeAllocations,
            int minAllocations,
            Runnable refreshAlternates,
            Runnable onDrained,
            long periodMs) {
        Objects.requireNonNull(onDrained, "onDrained");
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "tern-drain");
            thread.setDaemon(true);
            return thread;
        });
        AtomicBoolean done = new AtomicBoolean();
        timer.scheduleAtFixedRate(
                () -> {
                    refreshAlternates.run();
                    if (exitDue(draining.getAsBoolean(), activeAllocations.getAsLong(), minAllocations)
                            && done.compareAndSet(false, true)) {
                        timer.shutdown();
                        onDrained.run();
                    }
                },
                periodMs,
                periodMs,
                TimeUnit.MILLISECONDS);
        return new RelayDrain(timer);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
