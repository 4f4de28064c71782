package io.tern.nostr.store;

import io.tern.nostr.store.postgres.PostgresBackend;
import io.tern.nostr.store.postgres.TestDatabases;

/** tern-nostr's store contract (the rules SQLite and the reference keep) against a real PostgreSQL. */
class PostgresStoreContractTest extends StoreContractTest {
    @Override
    StoreBackend open() throws Exception {
        return PostgresBackend.open(TestDatabases.fresh(), true);
    }
}
