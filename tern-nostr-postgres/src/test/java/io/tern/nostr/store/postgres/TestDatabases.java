package io.tern.nostr.store.postgres;

import io.tern.testkit.PostgresProcess;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One PostgreSQL cluster for the module's tests that do not kill it, started on first use and
 * stopped (by PID) when the test JVM exits; each test gets an empty database of its own.
 */
public final class TestDatabases {
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static PostgresProcess shared;

    private TestDatabases() {}

    public static synchronized PostgresProcess cluster() throws Exception {
        if (shared == null) {
            PostgresProcess pg = PostgresProcess.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    pg.close();
                } catch (Exception ignored) {
                    // the JVM is exiting
                }
            }));
            shared = pg;
        }
        return shared;
    }

    /** A new empty database on the shared cluster. */
    public static PostgresStoreConfig fresh() throws Exception {
        return fresh(cluster());
    }

    /** A new empty database on {@code pg}, with the store's defaults. */
    public static PostgresStoreConfig fresh(PostgresProcess pg) throws Exception {
        String name = "t" + ProcessHandle.current().pid() + "_" + NEXT.incrementAndGet();
        pg.createDatabase(name);
        return PostgresStoreConfig.fromUrl(pg.url(name), pg.password());
    }
}
