package io.tern.nostr.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.postgres.PostgresBackend;
import io.tern.nostr.store.postgres.TestDatabases;
import io.tern.nostr.testing.Generators;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * For random events (every kind class, deletions by id and address, expirations, ties) written in
 * random batches, and random filters, PostgreSQL gives exactly the reference store's outcomes, query
 * results (same events in the same order) and counts, before and after a purge.
 */
class PostgresMatchesReferencePropertyTest {
    private static final long T = 1_700_000_000L;

    @Property(tries = 30)
    void postgresAgreesWithTheReference(@ForAll long seed) throws Exception {
        Random r = new Random(seed);
        MemoryEvents reference = new MemoryEvents();
        try (PostgresBackend pg = PostgresBackend.open(TestDatabases.fresh(), true)) {
            List<Event> written = new ArrayList<>();
            int n = 20 + r.nextInt(60);
            while (written.size() < n) {
                List<Event> batch = new ArrayList<>();
                for (int i = 1 + r.nextInt(6); i > 0; i--) {
                    // sometimes resend an earlier event
                    batch.add(
                            !written.isEmpty() && r.nextInt(10) == 0
                                    ? written.get(r.nextInt(written.size()))
                                    : Generators.event(r, T, written));
                }
                assertThat(pg.writeBatch(batch)).isEqualTo(reference.writeBatch(batch));
                written.addAll(batch);
            }
            compare(r, reference, pg, written, T + r.nextInt(25));
            long purgeAt = T + r.nextInt(25);
            assertThat(pg.purgeExpired(purgeAt)).isEqualTo(reference.purgeExpired(purgeAt));
            compare(r, reference, pg, written, purgeAt - 5);
        }
    }

    private static void compare(Random r, StoreBackend reference, StoreBackend pg, List<Event> known, long now) {
        for (int i = 0; i < 25; i++) {
            Filter f = Generators.filter(r, T, known);
            List<String> expected = ids(reference.openQuery(f, now));
            assertThat(ids(pg.openQuery(f, now))).as("%s at %d", f, now).isEqualTo(expected);
            Statistics.label("query results").collect(expected.isEmpty() ? "none" : expected.size() < 3 ? "1-2" : "3+");
            List<Filter> fs = List.of(f, Generators.filter(r, T, known));
            assertThat(rows(pg.openCount(fs, now))).as("count %s", fs).isEqualTo(rows(reference.openCount(fs, now)));
        }
    }

    private static List<String> ids(Cursor c) {
        List<SerializedEvent> out = new ArrayList<>();
        try (c) {
            while (c.step(7, out) == 7) {
                // keep stepping
            }
        }
        return out.stream().map(SerializedEvent::id).toList();
    }

    private static long rows(Cursor c) {
        long n = 0;
        try (c) {
            int k;
            while ((k = c.step(5, null)) > 0) {
                n += k;
            }
        }
        return n;
    }
}
