package io.tern.turn.engine;

import static io.tern.turn.testing.TurnTestClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.auth.DynamicCredentials;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A user database's credentials ({@code redis-userdb}) swapped into the engine's view while it
 * runs: the engine reads the new set on its next request, without a restart, beside the configured
 * users and secrets.
 */
class UserDatabaseAuthenticationTest {
    private static final String ERIN_KEY = keyHex("erin", "erin-pass");

    @Test
    void aUserAddedToTheDatabaseAllocatesOnItsNextRequestAndIsRefusedOnceRemoved() {
        TurnFixture fx = TurnFixture.create();
        CredentialStore store = fx.shared.credentials();
        TurnTestClient erin = fx.client("198.51.100.7", 40001).credentials("erin", "erin-pass");
        assertThat(erin.allocate().errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);

        store.replaceDynamic(users(Map.of("erin", ERIN_KEY)));
        fx.advanceSeconds(1);
        assertThat(erin.allocate().isSuccess()).isTrue();

        store.replaceDynamic(DynamicCredentials.EMPTY);
        fx.advanceSeconds(1);
        assertThat(erin.refresh().errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);
    }

    @Test
    void configuredUsersKeepWorkingBesideTheDatabaseAndWinOverIt() {
        TurnFixture fx = TurnFixture.create();
        // A database entry for alice with another password must not replace the configured one.
        fx.shared.credentials().replaceDynamic(users(Map.of("alice", keyHex("alice", "not-alice-secret"))));

        assertThat(fx.alice("198.51.100.7", 40001).allocate().isSuccess()).isTrue();
        assertThat(fx.client("198.51.100.8", 40001)
                        .credentials("alice", "not-alice-secret")
                        .allocate()
                        .errorCode())
                .isEqualTo(ErrorCode.UNAUTHENTICATED);
    }

    @Test
    void aSecretAddedToTheDatabaseSignsRestCredentialsBesideTheConfiguredOneUntilRemoved() {
        TurnFixture fx = TurnFixture.builder().secret("configured").build();
        CredentialStore store = fx.shared.credentials();
        String username = (fx.clock.epochSeconds() + 3600) + ":dave";
        TurnTestClient fromDatabase = fx.client("198.51.100.7", 40001)
                .credentials(username, CredentialStore.restPassword(utf8("rotated-in"), utf8(username)));
        TurnTestClient fromConfig = fx.client("198.51.100.8", 40001)
                .credentials(username, CredentialStore.restPassword(utf8("configured"), utf8(username)));
        assertThat(fromDatabase.allocate().errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);

        store.replaceDynamic(DynamicCredentials.of(TurnFixture.REALM, Map.of(), List.of("rotated-in"), r -> {}));
        assertThat(fromDatabase.allocate().isSuccess()).isTrue();
        assertThat(fromConfig.allocate().isSuccess()).isTrue();

        // The derived keys were cached under the old snapshot: removing the secret must drop them.
        store.replaceDynamic(DynamicCredentials.EMPTY);
        assertThat(fromDatabase.refresh().errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);
        assertThat(fromConfig.refresh().isSuccess()).isTrue();
    }

    @Test
    void aMalformedKeyGrantsNothing() {
        TurnFixture fx = TurnFixture.create();
        String truncated = ERIN_KEY.substring(0, 31);
        fx.shared.credentials().replaceDynamic(users(Map.of("erin", truncated)));

        TurnTestClient erin = fx.client("198.51.100.7", 40001).credentials("erin", "erin-pass");
        assertThat(erin.allocate().errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);
        assertThat(fx.counters().authFailures()).isEqualTo(1);
    }

    private static DynamicCredentials users(Map<String, String> keys) {
        return DynamicCredentials.of(TurnFixture.REALM, keys, List.of(), r -> {});
    }

    /** What coturn's turnadmin stores: hex MD5(user:realm:password). */
    private static String keyHex(String user, String password) {
        return HexFormat.of()
                .formatHex(MessageIntegrity.longTermKeyMd5(utf8(user), utf8(TurnFixture.REALM), utf8(password)));
    }
}
