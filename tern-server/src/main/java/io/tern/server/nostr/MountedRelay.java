package io.tern.server.nostr;

import io.netty.channel.EventLoop;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.nostr.NostrRelay;
import io.tern.netty.nostr.NostrRoutes;
import io.tern.nostr.crypto.SchnorrVerifiers;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.store.sqlite.SqliteEventStore;
import io.tern.nostr.store.sqlite.SqliteStoreConfig;
import io.tern.server.config.TernVersion;
import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import java.nio.file.Path;

/**
 * The Nostr relay another command hosts on a path of its HTTP server ({@code tern origin
 * --nostr-db}): the engine's default limits, the SQLite store with {@code tern nostr}'s defaults
 * (synchronous FULL), the relay's engine on one of the server's loops.
 */
public final class MountedRelay {
    /** Where the origin mounts the relay. */
    public static final String PATH = "/nostr";

    private static final System.Logger LOG = System.getLogger("tern.nostr");

    private MountedRelay() {}

    /**
     * Opens the database and the relay on {@code loop}, and adds its routes at {@link #PATH}.
     *
     * @param option the option that named {@code db}, and {@code source} where it was set, for the
     *     message when the database cannot be opened
     * @throws ConfigException naming the option and file when the database cannot be opened
     */
    public static NostrRelay mount(
            HttpRoutes.Builder routes, EventLoop loop, Path db, String option, ConfigSource source) throws Exception {
        NostrConfig config = NostrConfig.defaults();
        SqliteStoreConfig store = SqliteStoreConfig.defaults(db.toAbsolutePath());
        NostrRelay relay;
        try {
            relay = NostrRelay.open(
                    config,
                    loop,
                    sink -> SqliteEventStore.open(store, config.nip09(), sink, System::nanoTime),
                    verifier().verifier(),
                    () -> System.currentTimeMillis() / 1000,
                    TernVersion.version());
        } catch (java.sql.SQLException e) {
            throw ConfigException.invalidValue(
                    option, db.toString(), "cannot open the database: " + e.getMessage(), source);
        }
        NostrRoutes.mount(routes, PATH, relay);
        return relay;
    }

    /** libsecp256k1 when it loads; else BouncyCastle, with a warning saying why. */
    static SchnorrVerifiers.Choice verifier() {
        SchnorrVerifiers.Choice crypto = SchnorrVerifiers.best();
        if (crypto.fallbackReason() != null) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "libsecp256k1 is unavailable, verifying with BouncyCastle (about 30x slower): "
                            + crypto.fallbackReason());
        }
        return crypto;
    }
}
