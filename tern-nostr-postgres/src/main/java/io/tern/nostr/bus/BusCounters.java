package io.tern.nostr.bus;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A bus's counters, written by its threads and read at scrape time: notifications received,
 * catch-up reads (each a read by sequence id), deliveries, duplicates suppressed, reconnects,
 * ephemeral events published and lost, and the lag from commit (or publication) on another node
 * to delivery here, in {@link #LAG_BOUNDS_MS} buckets.
 */
public final class BusCounters {
    /** Upper bounds of the lag buckets, in milliseconds; one more bucket holds the rest. */
    public static final long[] LAG_BOUNDS_MS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000};

    final AtomicLong notifications = new AtomicLong();
    final AtomicLong catchUpReads = new AtomicLong();
    final AtomicLong deliveredStored = new AtomicLong();
    final AtomicLong deliveredEphemeral = new AtomicLong();
    final AtomicLong duplicatesSuppressed = new AtomicLong();
    final AtomicLong reconnects = new AtomicLong();
    final AtomicLong ephemeralPublished = new AtomicLong();
    final AtomicLong ephemeralLost = new AtomicLong();
    private final AtomicLongArray lagBuckets = new AtomicLongArray(LAG_BOUNDS_MS.length + 1);
    private final AtomicLong lagSumMs = new AtomicLong();

    void lag(long lagMs) {
        long ms = Math.max(0, lagMs);
        int i = 0;
        while (i < LAG_BOUNDS_MS.length && ms > LAG_BOUNDS_MS[i]) {
            i++;
        }
        lagBuckets.incrementAndGet(i);
        lagSumMs.addAndGet(ms);
    }

    public long notifications() {
        return notifications.get();
    }

    public long catchUpReads() {
        return catchUpReads.get();
    }

    public long deliveredStored() {
        return deliveredStored.get();
    }

    public long deliveredEphemeral() {
        return deliveredEphemeral.get();
    }

    public long duplicatesSuppressed() {
        return duplicatesSuppressed.get();
    }

    public long reconnects() {
        return reconnects.get();
    }

    public long ephemeralPublished() {
        return ephemeralPublished.get();
    }

    /** Ephemeral events that could not be published (the database was down): ephemeral, so not retried. */
    public long ephemeralLost() {
        return ephemeralLost.get();
    }

    /** Deliveries per lag bucket (not cumulative), the last one above {@link #LAG_BOUNDS_MS}' last bound. */
    public long[] lagBuckets() {
        long[] out = new long[lagBuckets.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = lagBuckets.get(i);
        }
        return out;
    }

    public long lagSumMs() {
        return lagSumMs.get();
    }
}
