package io.tern.nostr.store;

import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Runs queries and counts over a {@link StoreBackend} in time slices, round robin, as strfry does:
 * each turn gives one request at most {@code sliceNs} (checked every {@code rowsPerStep} rows)
 * and then moves it to the back of the line, so a REQ over millions of rows cannot hold up a
 * small one behind it. Each slice's rows go out as one {@link StoreCompletion.QueryBatch}.
 * Single-threaded: the owning store thread (or a test) calls everything.
 */
public final class QueryScheduler {
    private final StoreBackend backend;
    private final StoreCompletionSink sink;
    private final LongSupplier nanoTime;
    private final long sliceNs;
    private final int rowsPerStep;
    private final int maxActive;
    private final ArrayDeque<Job> jobs = new ArrayDeque<>();
    private final ArrayDeque<Job> waiting = new ArrayDeque<>();

    /**
     * @param nanoTime the store thread's clock (a fake in tests); only slices are timed with it
     * @param maxActive requests taking turns at once (each may hold one open cursor, so one read
     *     connection); later ones wait in arrival order
     */
    public QueryScheduler(
            StoreBackend backend,
            StoreCompletionSink sink,
            LongSupplier nanoTime,
            long sliceNs,
            int rowsPerStep,
            int maxActive) {
        this.backend = backend;
        this.sink = sink;
        this.nanoTime = nanoTime;
        this.sliceNs = sliceNs;
        this.rowsPerStep = rowsPerStep;
        this.maxActive = maxActive;
    }

    public void addQuery(long requestId, List<Filter> filters, long nowSeconds) {
        admit(new Job(requestId, filters, nowSeconds, false));
    }

    public void addCount(long requestId, List<Filter> filters, long nowSeconds) {
        admit(new Job(requestId, filters, nowSeconds, true));
    }

    private void admit(Job job) {
        if (jobs.size() < maxActive) {
            jobs.addLast(job);
        } else {
            waiting.addLast(job);
        }
    }

    public void cancel(long requestId) {
        if (remove(jobs, requestId)) {
            promote();
        } else {
            remove(waiting, requestId);
        }
    }

    private static boolean remove(ArrayDeque<Job> queue, long requestId) {
        for (Iterator<Job> it = queue.iterator(); it.hasNext(); ) {
            Job job = it.next();
            if (job.requestId == requestId) {
                job.close();
                it.remove();
                return true;
            }
        }
        return false;
    }

    private void promote() {
        while (jobs.size() < maxActive && !waiting.isEmpty()) {
            jobs.addLast(waiting.pollFirst());
        }
    }

    public boolean idle() {
        return jobs.isEmpty();
    }

    /** Requests not yet complete, taking turns or waiting for one. */
    public int pending() {
        return jobs.size() + waiting.size();
    }

    /** Gives the request at the front one slice; returns false when there was nothing to run. */
    public boolean runSlice() {
        Job job = jobs.pollFirst();
        if (job == null) {
            return false;
        }
        boolean done;
        try {
            done = job.run(nanoTime.getAsLong() + sliceNs);
        } catch (RuntimeException e) {
            job.close();
            promote();
            sink.complete(new StoreCompletion.Failed(job.requestId, String.valueOf(e.getMessage())));
            return true;
        }
        if (job.counting) {
            if (done) {
                sink.complete(new StoreCompletion.Counted(job.requestId, job.count));
            }
        } else if (done || !job.batch.isEmpty()) {
            sink.complete(new StoreCompletion.QueryBatch(job.requestId, job.batch, done));
            job.batch = new ArrayList<>();
        }
        if (done) {
            job.close();
            promote();
        } else {
            jobs.addLast(job);
        }
        return true;
    }

    /** Closes every open cursor; pending requests get no completion. */
    public void clear() {
        jobs.forEach(Job::close);
        jobs.clear();
        waiting.clear();
    }

    private final class Job {
        final long requestId;
        final List<Filter> filters;
        final long nowSeconds;
        final boolean counting;
        final Set<String> sent = new HashSet<>();
        List<SerializedEvent> batch = new ArrayList<>();
        final List<SerializedEvent> step = new ArrayList<>();
        int filterIndex;
        Cursor cursor;
        long count;

        Job(long requestId, List<Filter> filters, long nowSeconds, boolean counting) {
            this.requestId = requestId;
            this.filters = filters;
            this.nowSeconds = nowSeconds;
            this.counting = counting;
        }

        /** Works until {@code deadlineNs}; true when the request is complete. */
        boolean run(long deadlineNs) {
            do {
                if (cursor == null) {
                    if (counting) {
                        if (filterIndex > 0) {
                            return true;
                        }
                        cursor = backend.openCount(filters, nowSeconds);
                    } else {
                        if (filterIndex == filters.size()) {
                            return true;
                        }
                        cursor = backend.openQuery(filters.get(filterIndex), nowSeconds);
                    }
                }
                int rows;
                if (counting) {
                    rows = cursor.step(rowsPerStep, null);
                    count += rows;
                } else {
                    rows = cursor.step(rowsPerStep, step);
                    for (SerializedEvent e : step) {
                        // An event two filters select goes out once (it still counts toward both limits).
                        if (sent.add(e.id())) {
                            batch.add(e);
                        }
                    }
                    step.clear();
                }
                if (rows < rowsPerStep) {
                    cursor.close();
                    cursor = null;
                    filterIndex++;
                }
            } while (nanoTime.getAsLong() < deadlineNs);
            return counting ? cursor == null && filterIndex > 0 : cursor == null && filterIndex == filters.size();
        }

        void close() {
            if (cursor != null) {
                cursor.close();
                cursor = null;
            }
        }
    }
}
