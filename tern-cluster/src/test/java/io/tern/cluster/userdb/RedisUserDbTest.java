package io.tern.cluster.userdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.cluster.RedisAddress;
import io.tern.stun.address.TransportAddress;
import io.tern.testkit.Await;
import io.tern.testkit.RedisProcess;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.auth.DynamicCredentials;
import io.tern.turn.policy.PeerAddressPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** coturn's redis-userdb keys read from a real redis-server into a credential store. */
class RedisUserDbTest {
    private static final String REALM = "tern.test";
    private static final String KEY = "0123456789abcdef0123456789abcdef";
    private static final Duration WITHIN = Duration.ofSeconds(20);

    private RedisProcess redis;
    private RedisUserDb userDb;
    private final CredentialStore store = CredentialStore.of(REALM, List.of(), List.of(), ':');
    private final PeerAddressPolicy policy = PeerAddressPolicy.of(List.of(), List.of(), false, List.of());

    @BeforeEach
    void start() throws Exception {
        redis = RedisProcess.start();
        userDb = RedisUserDb.start(
                RedisAddress.parseCoturn("ip=127.0.0.1 dbname=0 port=" + redis.port()),
                REALM,
                true,
                Duration.ofMillis(200),
                store::replaceDynamic,
                policy::replaceDynamic);
    }

    @AfterEach
    void stop() throws Exception {
        if (userDb != null) {
            userDb.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private long readingsAfterNow() throws Exception {
        long seen = userDb.readings();
        Await.await("a fresh reading", WITHIN, () -> userDb.readings() >= seen + 2);
        return userDb.readings();
    }

    @Test
    void usersAndSecretsAppearAndGoWithTheirKeys() throws Exception {
        redis.command("SET", "turn/realm/" + REALM + "/user/erin/key", KEY);
        redis.command("SET", "turn/realm/other.realm/user/mallory/key", KEY);
        redis.command("SADD", "turn/realm/" + REALM + "/secret", "s1", "s2");

        Await.await("erin read", WITHIN, () -> !store.lookup("erin", 0).isEmpty());
        Await.await("both secrets read", WITHIN, () -> store.dynamic().secretCount() == 2);
        assertThat(store.lookup("mallory", 0)).as("another realm's user").isEmpty();
        assertThat(store.lookup("4000000000:dave", 0))
                .as("a REST name, one key per secret")
                .hasSize(2);

        redis.command("DEL", "turn/realm/" + REALM + "/user/erin/key");
        redis.command("SREM", "turn/realm/" + REALM + "/secret", "s1");
        Await.await("erin gone", WITHIN, () -> store.lookup("erin", 0).isEmpty());
        Await.await("s1 gone", WITHIN, () -> store.dynamic().secretCount() == 1);
        assertThat(userDb.refusals()).isZero();
    }

    @Test
    void malformedAndOversizedValuesAreRefusedAndGrantNothing() throws Exception {
        String prefix = "turn/realm/" + REALM + "/user/";
        redis.command("SET", prefix + "short/key", KEY.substring(1));
        redis.command("SET", prefix + "nothex/key", "zz" + KEY.substring(2));
        redis.command("SET", prefix + "huge/key", "a".repeat(100_000));
        redis.command("HSET", prefix + "ahash/key", "f", KEY);
        redis.command("SET", prefix + "good/key", KEY);
        List<String> tooMany = new ArrayList<>(List.of("SADD", "turn/realm/" + REALM + "/secret"));
        for (int i = 0; i < DynamicCredentials.MAX_SECRETS + 1; i++) {
            tooMany.add("secret-" + i);
        }
        redis.command(tooMany.toArray(String[]::new));

        readingsAfterNow();

        assertThat(store.dynamic().userCount()).isEqualTo(1);
        assertThat(store.lookup("good", 0)).hasSize(1);
        for (String bad : List.of("short", "nothex", "huge", "ahash")) {
            assertThat(store.lookup(bad, 0)).as(bad).isEmpty();
        }
        assertThat(store.dynamic().secretCount())
                .as("an oversized set is refused whole")
                .isZero();
        assertThat(userDb.refusals()).isGreaterThanOrEqualTo(5);

        redis.command("DEL", "turn/realm/" + REALM + "/secret");
        redis.command("SET", "turn/realm/" + REALM + "/secret", "not-a-set");
        readingsAfterNow();
        assertThat(store.dynamic().secretCount()).isZero();
        assertThat(store.lookup("good", 0))
                .as("one bad key spoils nothing else")
                .hasSize(1);
    }

    @Test
    void anOutageKeepsTheLastReadingAndARestartedRedisIsReadAgain() throws Exception {
        redis.command("SET", "turn/realm/" + REALM + "/user/erin/key", KEY);
        Await.await("erin read", WITHIN, () -> !store.lookup("erin", 0).isEmpty());

        redis.kill();
        long failed = userDb.failures();
        Await.await("a failed reading", WITHIN, () -> userDb.failures() > failed);
        assertThat(store.lookup("erin", 0)).hasSize(1);

        redis.restart();
        // The restarted Redis kept nothing on disk: erin is gone once it is read again.
        Await.await("read again", WITHIN, () -> store.lookup("erin", 0).isEmpty());
    }

    @Test
    void coturnsPeerRangeKeysDenyAndAllowAndABadOneIsRefused() throws Exception {
        TransportAddress peer = TransportAddress.parse("172.17.13.140", 5000);
        TransportAddress loopback = TransportAddress.parse("127.0.0.1", 5000);
        redis.command("SET", "turn/denied-peer-ip/123456", "172.17.13.133-172.17.14.56");
        redis.command("SET", "turn/allowed-peer-ip/345678", "127.0.0.1");
        redis.command("SET", "turn/denied-peer-ip/bad", "172.17.13.0/99");
        Await.await("the deny read", WITHIN, () -> !policy.permits(peer));
        assertThat(policy.permits(loopback))
                .as("allowed wins over the loopback default")
                .isTrue();
        assertThat(policy.permits(TransportAddress.parse("172.17.15.1", 5000))).isTrue();
        assertThat(userDb.refusals()).isPositive();

        redis.command("DEL", "turn/denied-peer-ip/123456", "turn/allowed-peer-ip/345678");
        Await.await("the deny removed", WITHIN, () -> policy.permits(peer));
        assertThat(policy.permits(loopback)).isFalse();
    }

    @Test
    void aRealmWithGlobCharactersMatchesOnlyItself() {
        assertThat(RedisUserDb.glob("a*b?[c]\\")).isEqualTo("a\\*b\\?\\[c\\]\\\\");
    }
}
