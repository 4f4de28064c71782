package io.tern.nostr.store;

import io.tern.nostr.store.sqlite.SqliteBackend;
import io.tern.nostr.store.sqlite.SqliteStoreConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteStoreContractTest extends StoreContractTest {
    @TempDir
    Path dir;

    @Override
    StoreBackend open() throws Exception {
        return SqliteBackend.open(SqliteStoreConfig.defaults(dir.resolve("relay.db")), true);
    }
}
