package io.tern.nostr.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PostgresStoreConfigTest {
    @Test
    void aUrlGivesHostPortUserDatabaseAndPassword() {
        PostgresStoreConfig c = PostgresStoreConfig.fromUrl("postgresql://relay:s%40cret@db.example:6543/nostr", null);
        assertThat(c.host()).isEqualTo("db.example");
        assertThat(c.port()).isEqualTo(6543);
        assertThat(c.user()).isEqualTo("relay");
        assertThat(c.password()).isEqualTo("s@cret");
        assertThat(c.database()).isEqualTo("nostr");
        assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/nostr");
        assertThat(c.displayUrl()).isEqualTo("postgresql://relay@db.example:6543/nostr");
        assertThat(c.toString()).doesNotContain("cret");

        PostgresStoreConfig d = PostgresStoreConfig.fromUrl("postgres://relay@[::1]/nostr", "from-file");
        assertThat(d.port()).isEqualTo(PostgresStoreConfig.DEFAULT_PORT);
        assertThat(d.password()).isEqualTo("from-file");
        assertThat(d.jdbcUrl()).isEqualTo("jdbc:postgresql://[::1]:5432/nostr");
    }

    @Test
    void aBadUrlSaysWhatIsWrongWithoutEchoingThePassword() {
        assertThatThrownBy(() -> PostgresStoreConfig.fromUrl("postgresql://db:5432/nostr", null))
                .hasMessageContaining("no user");
        assertThatThrownBy(() -> PostgresStoreConfig.fromUrl("postgresql://relay@db:5432/", null))
                .hasMessageContaining("no database");
        assertThatThrownBy(() -> PostgresStoreConfig.fromUrl("postgresql://relay@db:99999/nostr", null))
                .hasMessageContaining("port");
        assertThatThrownBy(() -> PostgresStoreConfig.fromUrl("postgresql://relay@db/nostr?sslmode=require", null))
                .hasMessageContaining("parameters");
        assertThatThrownBy(() -> PostgresStoreConfig.fromUrl("postgresql://relay:hunter2@db/nostr", "file"))
                .hasMessageContaining("password file")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> PostgresStoreConfig.fromUrl("postgresql://re lay@db/nostr", null))
                .hasMessageContaining("not a URL");
    }
}
