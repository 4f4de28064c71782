package io.tern.server.metrics;

import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * coturn's drain behaviour: once in drain mode, the server exits when its last allocation is
 * gone. Polls two cheap reads (the drain flag and the summed allocation gauges) on a daemon
 * thread and runs {@code onDrained} once.
 */
public final class DrainWatch implements AutoCloseable {
    private final ScheduledExecutorService timer;

    private DrainWatch(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    public static DrainWatch start(
            BooleanSupplier draining, LongSupplier activeAllocations, Runnable onDrained, long periodMs) {
        Objects.requireNonNull(draining, "draining");
        Objects.requireNonNull(activeAllocations, "activeAllocations");
        Objects.requireNonNull(onDrained, "onDrained");
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "tern-drain-watch");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(
                () -> {
                    if (draining.getAsBoolean() && activeAllocations.getAsLong() <= 0) {
                        timer.shutdown();
                        onDrained.run();
                    }
                },
                periodMs,
                periodMs,
                TimeUnit.MILLISECONDS);
        return new DrainWatch(timer);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
