package io.tern.nostr.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.sqlite.SqliteBackend;
import io.tern.nostr.store.sqlite.SqliteEventStore;
import io.tern.nostr.store.sqlite.SqliteStoreConfig;
import io.tern.nostr.testing.Keys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's query time slices run on the injected clock: with a fake one that moves a quarter
 * slice per reading, each slice reads exactly four steps of rows and then hands the rows read so
 * far to the engine, whatever the machine's speed.
 */
class SqliteQuerySliceTest {
    private static final long T = 1_700_000_000L;
    private static final long SLICE_NS = 4_000;
    private static final int ROWS_PER_STEP = 10;
    private static final int EVENTS = 95;

    @TempDir
    Path dir;

    @Test
    void aQueryYieldsItsRowsAtEachSliceBoundaryOfTheInjectedClock() throws Exception {
        SqliteStoreConfig config =
                new SqliteStoreConfig(dir.resolve("relay.db"), false, 1, 512, SLICE_NS, ROWS_PER_STEP);
        Keys alice = Keys.fromSeed(1);
        Set<String> written = new HashSet<>();
        try (SqliteBackend backend = SqliteBackend.open(config, true)) {
            List<Event> events = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                Event e = alice.sign(T - i, 1, List.of(), "row " + i);
                events.add(e);
                written.add(e.id());
            }
            assertThat(backend.writeBatch(events)).containsOnly(WriteOutcome.STORED);
        }

        // Read only by the reader thread: each reading is a quarter slice later than the one before.
        AtomicLong fakeNs = new AtomicLong(1_000_000);
        LinkedBlockingQueue<StoreCompletion> completions = new LinkedBlockingQueue<>();
        List<StoreCompletion.QueryBatch> batches = new ArrayList<>();
        try (SqliteEventStore store =
                SqliteEventStore.open(config, true, completions::add, () -> fakeNs.getAndAdd(SLICE_NS / 4))) {
            store.query(7, List.of(Filter.any().withLimit(1000)), T);
            while (batches.isEmpty() || !batches.getLast().done()) {
                StoreCompletion c = completions.poll(30, TimeUnit.SECONDS);
                assertThat(c).as("a completion within 30 s").isInstanceOf(StoreCompletion.QueryBatch.class);
                batches.add((StoreCompletion.QueryBatch) c);
            }
        }

        // Four steps of 10 rows fit in a slice: 40, 40, then the last 15 with the query done.
        assertThat(batches).extracting(b -> b.events().size()).containsExactly(40, 40, 15);
        assertThat(batches).extracting(StoreCompletion.QueryBatch::done).containsExactly(false, false, true);
        assertThat(batches.stream().flatMap(b -> b.events().stream()).map(SerializedEvent::id))
                .containsExactlyInAnyOrderElementsOf(written);
    }
}
