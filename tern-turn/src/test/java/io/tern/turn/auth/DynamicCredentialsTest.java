package io.tern.turn.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class DynamicCredentialsTest {
    private static final String REALM = "tern.test";
    private static final String MD5_HEX = "0123456789abcdef0123456789abcdef";
    private static final String SHA256_HEX = MD5_HEX + MD5_HEX;

    @Test
    void thirtyTwoHexDigitsAreAnMd5KeyAndSixtyFourASha256Key() {
        DynamicCredentials d = DynamicCredentials.of(
                REALM, Map.of("md5", MD5_HEX, "sha", SHA256_HEX, "prefixed", "0x" + MD5_HEX), List.of(), r -> {});

        assertThat(d.user("md5").keyMd5()).hasSize(16);
        assertThat(d.user("md5").keySha256()).isNull();
        assertThat(d.user("sha").keyMd5()).isNull();
        assertThat(d.user("sha").keySha256()).hasSize(32);
        assertThat(d.user("prefixed")).isNotNull();
    }

    @Test
    void malformedKeysAndNamesAreRefusedAndReportedWithoutTheirValue() {
        List<String> refused = new ArrayList<>();
        Map<String, String> keys = new HashMap<>();
        keys.put("short", MD5_HEX.substring(1));
        keys.put("nothex", "zz" + MD5_HEX.substring(2));
        keys.put("huge", "a".repeat(1 << 20));
        keys.put("x".repeat(DynamicCredentials.MAX_USERNAME_BYTES + 1), MD5_HEX);
        keys.put("missing", null);

        DynamicCredentials d = DynamicCredentials.of(REALM, keys, List.of(), refused::add);

        assertThat(d.userCount()).isZero();
        assertThat(refused).hasSize(5);
        assertThat(String.join("\n", refused)).doesNotContain("zz").doesNotContain("aaaa");
    }

    @Test
    void secretsBeyondTheBoundsAreRefused() {
        List<String> secrets = new ArrayList<>();
        secrets.add("");
        secrets.add("s".repeat(DynamicCredentials.MAX_SECRET_BYTES + 1));
        for (int i = 0; i < DynamicCredentials.MAX_SECRETS + 5; i++) {
            secrets.add("secret-" + i);
        }
        List<String> refused = new ArrayList<>();

        DynamicCredentials d = DynamicCredentials.of(REALM, Map.of(), secrets, refused::add);

        assertThat(d.secretCount()).isEqualTo(DynamicCredentials.MAX_SECRETS);
        assertThat(refused).hasSize(3);
    }

    @Test
    void aUserFromTheDatabaseIsFoundByItsUserhash() {
        CredentialStore store = CredentialStore.of(REALM, List.of(), List.of(), ':');
        store.replaceDynamic(DynamicCredentials.of(REALM, Map.of("erin", MD5_HEX), List.of(), r -> {}));
        byte[] hash = io.tern.stun.integrity.MessageIntegrity.userHash(utf8("erin"), utf8(REALM));

        assertThat(store.usernameForHash(hash, hash.length)).isEqualTo("erin");
        assertThat(store.lookup("erin", 0)).hasSize(1);
    }

    @Property
    void anyValueIsEitherAWellFormedKeyOrRefused(@ForAll String name, @ForAll String value) {
        List<String> refused = new ArrayList<>();
        DynamicCredentials d = DynamicCredentials.of(REALM, Map.of(name, value), List.of(), refused::add);

        Credential c = d.user(name);
        if (c == null) {
            assertThat(refused).hasSize(1);
        } else {
            assertThat(refused).isEmpty();
            assertThat(c.keyMd5() != null ? c.keyMd5().length : c.keySha256().length)
                    .isIn(16, 32);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
