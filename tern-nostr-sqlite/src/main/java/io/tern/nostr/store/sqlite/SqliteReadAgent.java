package io.tern.nostr.store.sqlite;

import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.QueryScheduler;
import io.tern.nostr.store.StoreAgent;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The store's reader: each {@link #doWork} admits the queries, counts and cancels that arrived
 * and then gives one query one time slice on the read connections ({@link QueryScheduler}),
 * timed by the store's injected clock. Requests arrive from the engine's thread through a queue;
 * the agent is stepped by one thread.
 */
public final class SqliteReadAgent implements StoreAgent {
    private final QueryScheduler scheduler;
    private final LinkedBlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    /** A request {@link #awaitWork} took from the inbox, admitted by the next {@link #doWork}. */
    private Object held;

    private record Query(long requestId, List<Filter> filters, long nowSeconds, boolean count) {}

    private record Cancel(long requestId) {}

    SqliteReadAgent(QueryScheduler scheduler) {
        this.scheduler = scheduler;
    }

    void query(long requestId, List<Filter> filters, long nowSeconds, boolean count) {
        inbox.add(new Query(requestId, filters, nowSeconds, count));
    }

    void cancel(long requestId) {
        inbox.add(new Cancel(requestId));
    }

    /** Queries and counts submitted and not yet complete. */
    public int pending() {
        return inbox.size() + (held == null ? 0 : 1) + scheduler.pending();
    }

    @Override
    public int doWork() {
        int worked = 0;
        if (held != null) {
            admit(held);
            held = null;
            worked++;
        }
        // Bounded by what is queued now: a flood of requests cannot starve the slices.
        for (int n = inbox.size(); n > 0; n--) {
            Object request = inbox.poll();
            if (request == null) {
                break;
            }
            admit(request);
            worked++;
        }
        return scheduler.runSlice() ? worked + 1 : worked;
    }

    private void admit(Object request) {
        switch (request) {
            case Query q when q.count() -> scheduler.addCount(q.requestId(), q.filters(), q.nowSeconds());
            case Query q -> scheduler.addQuery(q.requestId(), q.filters(), q.nowSeconds());
            case Cancel c -> scheduler.cancel(c.requestId());
            default -> throw new IllegalStateException("unknown request " + request);
        }
    }

    @Override
    public void awaitWork(long timeoutNs) throws InterruptedException {
        if (held != null || !scheduler.idle()) {
            return;
        }
        held = inbox.poll(timeoutNs, TimeUnit.NANOSECONDS);
    }

    @Override
    public String roleName() {
        return "tern-nostr-sqlite-reader";
    }

    /** Closes the cursors of the queries still running; they get no completion. */
    void clear() {
        scheduler.clear();
        inbox.clear();
        held = null;
    }
}
