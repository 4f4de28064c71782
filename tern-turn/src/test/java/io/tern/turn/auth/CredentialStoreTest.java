package io.tern.turn.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.integrity.MessageIntegrity;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CredentialStoreTest {
    private static final String REALM = "tern.test";
    private static final long NOW = 1_800_000_000L;

    private final CredentialStore store =
            CredentialStore.of(REALM, List.of(), List.of("new-secret", "old-secret"), ':');

    @Test
    void restUsernameYieldsOneKeyPerSecretDerivedFromItsPassword() {
        String username = (NOW + 60) + ":alice";
        List<Credential> candidates = store.lookup(username, NOW);
        assertThat(candidates).hasSize(2);
        assertThat(candidates.get(0).user()).isEqualTo("alice");
        byte[] name = utf8(username);
        for (int i = 0; i < 2; i++) {
            byte[] password = utf8(CredentialStore.restPassword(utf8(i == 0 ? "new-secret" : "old-secret"), name));
            assertThat(candidates.get(i).keyMd5())
                    .isEqualTo(MessageIntegrity.longTermKeyMd5(name, utf8(REALM), password));
            assertThat(candidates.get(i).keySha256())
                    .isEqualTo(MessageIntegrity.longTermKeySha256(name, utf8(REALM), password));
        }
    }

    @Test
    void laterLookupsOfTheSameUsernameReuseTheDerivedKeys() {
        String username = (NOW + 60) + ":alice";
        List<Credential> first = store.lookup(username, NOW);
        assertThat(store.lookup(username, NOW + 1)).isSameAs(first);
        assertThat(store.cachedRestUsers()).isEqualTo(1);
    }

    @Test
    void aCachedUsernameStillExpires() {
        String username = (NOW + 60) + ":alice";
        assertThat(store.lookup(username, NOW)).isNotEmpty();
        assertThat(store.lookup(username, NOW + 61)).isEmpty();
    }

    @Test
    void theCacheStaysBoundedWhateverUsernamesArrive() {
        for (int i = 0; i < CredentialStore.MAX_CACHED_REST_USERS * 2 + 10; i++) {
            store.lookup((NOW + 60) + ":stranger-" + i, NOW);
            assertThat(store.cachedRestUsers()).isLessThanOrEqualTo(CredentialStore.MAX_CACHED_REST_USERS);
        }
    }

    @Test
    void malformedOrUnknownUsernamesAreNotCached() {
        assertThat(store.lookup("not-a-timestamp:alice", NOW)).isEmpty();
        assertThat(store.lookup((NOW - 1) + ":late", NOW)).isEmpty();
        assertThat(store.cachedRestUsers()).isZero();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
