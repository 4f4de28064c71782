package io.tern.nostr.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Migrations: once, under the lock, however many nodes start together on an empty database. */
class PostgresSchemaTest {
    private static final int NODES = 6;

    @Test
    void nodesStartingTogetherOnAnEmptyDatabaseMigrateItOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(NODES);
        try {
            for (int round = 0; round < 3; round++) {
                PostgresStoreConfig db = TestDatabases.fresh();
                CyclicBarrier together = new CyclicBarrier(NODES);
                List<Future<Integer>> ran = new ArrayList<>();
                for (int i = 0; i < NODES; i++) {
                    ran.add(pool.submit(() -> {
                        try (Connection c = PostgresBackend.connect(db)) {
                            together.await(30, TimeUnit.SECONDS);
                            return PostgresSchema.migrate(c);
                        }
                    }));
                }
                int total = 0;
                for (Future<Integer> f : ran) {
                    total += f.get(60, TimeUnit.SECONDS);
                }
                assertThat(total).as("migrations run in round " + round).isEqualTo(PostgresSchema.VERSION);
                assertThat(TestDatabases.cluster()
                                .psql(db.database(), "SELECT value FROM nostr_meta WHERE key = 'schema_version'"))
                        .isEqualTo(Integer.toString(PostgresSchema.VERSION));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aNewerSchemaIsRefusedNamingBothVersions() throws Exception {
        PostgresStoreConfig db = TestDatabases.fresh();
        PostgresBackend.open(db, true).close();
        TestDatabases.cluster().psql(db.database(), "UPDATE nostr_meta SET value = 99 WHERE key = 'schema_version'");
        assertThatThrownBy(() -> PostgresBackend.open(db, true))
                .hasMessageContaining(db.displayUrl())
                .hasMessageContaining("database schema version 99, this Tern reads " + PostgresSchema.VERSION);
    }
}
