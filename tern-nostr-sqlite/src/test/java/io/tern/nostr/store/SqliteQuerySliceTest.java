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

        // Each reading of the clock is a quarter slice later than the one before.
        long[] fakeNs = {1_000_000};
        List<StoreCompletion> completions = new ArrayList<>();
        try (SqliteEventStore store =
                SqliteEventStore.open(config, true, completions::add, () -> fakeNs[0] += SLICE_NS / 4)) {
            store.query(7, List.of(Filter.any().withLimit(1000)), T);
            // The reader, stepped: the first step admits the query and runs its first slice.
            for (int slice = 1; slice <= 3; slice++) {
                assertThat(store.reader().doWork()).as("slice %d ran", slice).isPositive();
                assertThat(completions).as("one batch per slice").hasSize(slice);
            }
            assertThat(store.reader().doWork()).as("nothing left").isZero();
        }
        List<StoreCompletion.QueryBatch> batches =
                completions.stream().map(StoreCompletion.QueryBatch.class::cast).toList();

        // Four steps of 10 rows fit in a slice: 40, 40, then the last 15 with the query done.
        assertThat(batches).extracting(b -> b.events().size()).containsExactly(40, 40, 15);
        assertThat(batches).extracting(StoreCompletion.QueryBatch::done).containsExactly(false, false, true);
        assertThat(batches.stream().flatMap(b -> b.events().stream()).map(SerializedEvent::id))
                .containsExactlyInAnyOrderElementsOf(written);
    }
}
