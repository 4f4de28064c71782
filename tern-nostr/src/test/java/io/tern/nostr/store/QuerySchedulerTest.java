package io.tern.nostr.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.testing.Keys;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Time slices, round robin and admission, on a fake clock that advances per row read. */
class QuerySchedulerTest {
    private static final long T = 1_700_000_000L;
    private final List<StoreCompletion> completions = new ArrayList<>();
    private final MemoryEvents events = new MemoryEvents();
    private long clockNs;

    /** A backend whose cursors cost 1 µs of (fake) time per row. */
    private final StoreBackend slowBackend = new StoreBackend() {
        @Override
        public List<WriteOutcome> writeBatch(List<Event> batch) {
            return events.writeBatch(batch);
        }

        @Override
        public Cursor openQuery(Filter filter, long nowSeconds) {
            return timed(events.openQuery(filter, nowSeconds));
        }

        @Override
        public Cursor openCount(List<Filter> filters, long nowSeconds) {
            return timed(events.openCount(filters, nowSeconds));
        }

        private Cursor timed(Cursor c) {
            return new Cursor() {
                @Override
                public int step(int maxRows, List<io.tern.nostr.event.SerializedEvent> out) {
                    int n = c.step(maxRows, out);
                    clockNs += 1_000L * n;
                    return n;
                }

                @Override
                public void close() {
                    c.close();
                }
            };
        }

        @Override
        public int purgeExpired(long nowSeconds) {
            return events.purgeExpired(nowSeconds);
        }

        @Override
        public void close() {}
    };

    private void populate(int n) {
        Keys k = Keys.fromSeed(1);
        List<Event> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(k.sign(T - i, 1, List.of(), "e" + i));
        }
        events.writeBatch(batch);
    }

    @Test
    void aHeavyQueryIsSlicedSoALightOneBehindItFinishesFirst() {
        populate(2000);
        // slices of 100 µs, checked every 10 rows: 100 rows per slice here
        QueryScheduler s = new QueryScheduler(slowBackend, completions::add, () -> clockNs, 100_000, 10, 8);
        s.addQuery(1, List.of(Filter.any().withLimit(2000)), T);
        s.addQuery(2, List.of(Filter.any().withLimit(5)), T);
        while (s.runSlice()) {
            // run to the end
        }
        int lightDone = indexOfDone(2);
        int heavyDone = indexOfDone(1);
        assertThat(lightDone).isLessThan(heavyDone);
        // The heavy query came in slices of 100 events, in order, 2000 in all.
        List<StoreCompletion.QueryBatch> heavy = batches(1);
        assertThat(heavy).hasSizeGreaterThanOrEqualTo(20);
        assertThat(heavy.subList(0, heavy.size() - 1))
                .allSatisfy(b -> assertThat(b.events()).hasSize(100));
        assertThat(heavy.stream().mapToInt(b -> b.events().size()).sum()).isEqualTo(2000);
        assertThat(heavy.get(0).events().get(0).createdAt()).isEqualTo(T);
    }

    @Test
    void anEventTwoFiltersSelectIsReturnedOnce() {
        populate(10);
        QueryScheduler s = new QueryScheduler(events, completions::add, () -> 0L, 1, 50, 8);
        s.addQuery(1, List.of(Filter.any().withLimit(6), Filter.any().withLimit(10)), T);
        s.runSlice();
        assertThat(batches(1)).singleElement().satisfies(b -> {
            assertThat(b.done()).isTrue();
            assertThat(b.events()).hasSize(10);
            assertThat(b.events().stream().map(e -> e.id()).distinct()).hasSize(10);
        });
    }

    @Test
    void countsAndCancellation() {
        populate(30);
        QueryScheduler s = new QueryScheduler(slowBackend, completions::add, () -> clockNs, 5_000, 1, 8);
        s.addCount(1, List.of(new Filter(null, null, new int[] {1}, List.of(), 0, Long.MAX_VALUE, 1)), T);
        s.addQuery(2, List.of(Filter.any().withLimit(30)), T);
        s.runSlice();
        s.cancel(2);
        while (s.runSlice()) {
            // drain
        }
        assertThat(completions)
                .filteredOn(c -> c instanceof StoreCompletion.Counted)
                .singleElement()
                .isEqualTo(new StoreCompletion.Counted(1, 30));
        assertThat(batches(2)).noneMatch(StoreCompletion.QueryBatch::done);
        assertThat(s.idle()).isTrue();
    }

    @Test
    void noMoreRequestsRunAtOnceThanAllowedTheRestWaitInOrder() {
        populate(300);
        QueryScheduler s = new QueryScheduler(slowBackend, completions::add, () -> clockNs, 10_000, 10, 2);
        for (int id = 1; id <= 4; id++) {
            s.addQuery(id, List.of(Filter.any().withLimit(300)), T);
        }
        assertThat(s.pending()).isEqualTo(4);
        while (s.runSlice()) {
            long active = completions.stream()
                    .map(StoreCompletion::requestId)
                    .distinct()
                    .filter(id -> indexOfDoneOrMinus(id) < 0)
                    .count();
            assertThat(active).isLessThanOrEqualTo(2);
        }
        assertThat(indexOfDone(1)).isLessThan(indexOfDone(3));
        assertThat(indexOfDone(2)).isLessThan(indexOfDone(4));
        assertThat(List.of(batchesTotal(1), batchesTotal(2), batchesTotal(3), batchesTotal(4)))
                .containsOnly(300);
    }

    @Test
    void aFailingCursorFailsItsRequestOnly() {
        populate(5);
        StoreBackend broken = new StoreBackend() {
            @Override
            public List<WriteOutcome> writeBatch(List<Event> batch) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Cursor openQuery(Filter filter, long nowSeconds) {
                if (filter.limit() == 13) {
                    throw new IllegalStateException("disk on fire");
                }
                return events.openQuery(filter, nowSeconds);
            }

            @Override
            public Cursor openCount(List<Filter> filters, long nowSeconds) {
                return events.openCount(filters, nowSeconds);
            }

            @Override
            public int purgeExpired(long nowSeconds) {
                return 0;
            }

            @Override
            public void close() {}
        };
        QueryScheduler s = new QueryScheduler(broken, completions::add, () -> 0L, 1, 50, 1);
        s.addQuery(1, List.of(Filter.any().withLimit(13)), T);
        s.addQuery(2, List.of(Filter.any().withLimit(5)), T);
        while (s.runSlice()) {
            // drain
        }
        assertThat(completions.get(0)).isEqualTo(new StoreCompletion.Failed(1, "disk on fire"));
        assertThat(batchesTotal(2)).isEqualTo(5);
    }

    private List<StoreCompletion.QueryBatch> batches(long id) {
        return completions.stream()
                .filter(c -> c instanceof StoreCompletion.QueryBatch b && b.requestId() == id)
                .map(c -> (StoreCompletion.QueryBatch) c)
                .toList();
    }

    private int batchesTotal(long id) {
        return batches(id).stream().mapToInt(b -> b.events().size()).sum();
    }

    private int indexOfDone(long id) {
        int i = indexOfDoneOrMinus(id);
        assertThat(i).as("request %d finished", id).isNotNegative();
        return i;
    }

    private int indexOfDoneOrMinus(long id) {
        for (int i = 0; i < completions.size(); i++) {
            if (completions.get(i) instanceof StoreCompletion.QueryBatch b && b.requestId() == id && b.done()) {
                return i;
            }
        }
        return -1;
    }
}
