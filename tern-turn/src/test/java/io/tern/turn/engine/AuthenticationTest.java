package io.tern.turn.engine;

import static io.tern.turn.testing.TurnTestClient.udpTransport;
import static io.tern.turn.testing.TurnTestClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunMethod;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The long-term credential mechanism (RFC 8489 §9.2) as the engine applies it to TURN requests. */
class AuthenticationTest {
    private static final byte[] OFFERED_ALGORITHMS = {0, 2, 0, 0, 0, 1, 0, 0};

    @Test
    void allocateWithoutIntegrityIsChallengedWith401RealmNonceAndAlgorithms() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.client("198.51.100.7", 40001);

        StunResponse answer = client.exchange(client.unsignedRequest(StunMethod.ALLOCATE, udpTransport()));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);
        assertThat(answer.text(AttributeType.REALM)).isEqualTo(TurnFixture.REALM);
        assertThat(answer.text(AttributeType.NONCE)).startsWith("obMatJos2");
        assertThat(answer.value(AttributeType.PASSWORD_ALGORITHMS)).containsExactly(OFFERED_ALGORITHMS);
        assertThat(answer.has(AttributeType.MESSAGE_INTEGRITY)).isFalse();
        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.openedHistory).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"USERNAME", "REALM", "NONCE"})
    void integrityWithoutUsernameRealmOrNonceIs400(String missing) {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.challenge();

        StunResponse answer = client.exchange(client.unsignedRequest(
                StunMethod.ALLOCATE, udpTransport().andThen(w -> {
                    if (!missing.equals("USERNAME")) {
                        w.putBytes(AttributeType.USERNAME, utf8("alice"));
                    }
                    if (!missing.equals("REALM")) {
                        w.putBytes(AttributeType.REALM, client.realm);
                    }
                    if (!missing.equals("NONCE")) {
                        w.putBytes(AttributeType.NONCE, client.nonce);
                    }
                    w.putMessageIntegrity(client.keyMd5);
                })));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void forgedNonceIs438WithAFreshNonce() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.challenge();
        client.retryStaleNonce = false;
        byte[] forged = client.nonce.clone();
        forged[forged.length - 1] = (byte) (forged[forged.length - 1] == 'a' ? 'b' : 'a');
        client.nonce = forged;

        StunResponse answer = client.allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.STALE_NONCE);
        assertThat(answer.text(AttributeType.NONCE)).startsWith("obMatJos2").isNotEqualTo(new String(forged));
        assertThat(answer.text(AttributeType.REALM)).isEqualTo(TurnFixture.REALM);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void badlyShapedNonceIs438() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.challenge();
        client.retryStaleNonce = false;
        client.nonce = utf8("obMatJos2AAAAnot-a-nonce");

        assertThat(client.allocate().errorCode()).isEqualTo(ErrorCode.STALE_NONCE);
    }

    /** RFC 6062: a data connection, from a new port, signs its ConnectionBind with the control connection's nonce. */
    @Test
    void nonceIsBoundToTheClientsIpNotItsPort() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient control = fx.alice("198.51.100.7", 40001);
        control.challenge();
        TurnTestClient data = fx.alice("198.51.100.7", 40002);
        data.retryStaleNonce = false;
        data.nonce = control.nonce;
        data.realm = control.realm;

        assertThat(data.allocate().isSuccess()).isTrue();
    }

    @Test
    void nonceIssuedToAnotherClientIs438() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient other = fx.alice("198.51.100.8", 40001);
        other.challenge();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.challenge();
        client.retryStaleNonce = false;
        client.nonce = other.nonce;

        assertThat(client.allocate().errorCode()).isEqualTo(ErrorCode.STALE_NONCE);
    }

    @Test
    void expiredNonceIs438AndTheNewNonceWorks() {
        TurnFixture fx = TurnFixture.builder().nonceLifetimeSeconds(600).build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.challenge();
        client.retryStaleNonce = false;
        fx.advanceSeconds(599);
        assertThat(client.refresh().errorCode())
                .as("nonce still fresh: past auth, no allocation")
                .isEqualTo(ErrorCode.ALLOCATION_MISMATCH);

        fx.advanceSeconds(2);
        StunResponse stale = client.allocate();

        assertThat(stale.errorCode()).isEqualTo(ErrorCode.STALE_NONCE);
        client.nonce = stale.value(AttributeType.NONCE);
        assertThat(client.allocate().isSuccess()).isTrue();
    }

    @Test
    void wrongPasswordIs401AndCountsAnAuthFailure() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.client("198.51.100.7", 40001).credentials("alice", "not-alices-password");

        StunResponse answer = client.allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);
        assertThat(answer.has(AttributeType.MESSAGE_INTEGRITY)).isFalse();
        assertThat(answer.text(AttributeType.NONCE)).startsWith("obMatJos2");
        assertThat(fx.counters().authFailures()).isEqualTo(1);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void unknownUserIs401AndCountsAnAuthFailure() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.client("198.51.100.7", 40001).credentials("mallory", "whatever");

        assertThat(client.allocate().errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);
        assertThat(fx.counters().authFailures()).isEqualTo(1);
    }

    @Test
    void staticUserWithPasswordAllocatesAndTheAnswerIsSignedWithItsKey() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);

        StunResponse answer = client.allocate();

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keyMd5))
                .isTrue();
        byte[] bobKey = MessageIntegrity.longTermKeyMd5(utf8("bob"), utf8(TurnFixture.REALM), utf8("bob-secret"));
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, bobKey))
                .isFalse();
        assertThat(fx.counters().authFailures()).isZero();
    }

    @Test
    void staticUserGivenAsMd5KeyAllocates() {
        byte[] key = MessageIntegrity.longTermKeyMd5(utf8("carol"), utf8(TurnFixture.REALM), utf8("carol-secret"));
        TurnFixture fx = TurnFixture.builder()
                .user("carol:0x" + HexFormat.of().formatHex(key))
                .build();
        TurnTestClient client = fx.client("198.51.100.7", 40001).credentials("carol", "carol-secret");

        StunResponse answer = client.allocate();

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, key)).isTrue();
    }

    @Test
    void restCredentialAllocates() {
        TurnFixture fx = TurnFixture.builder().secret("rest-secret-1").build();
        String username = (fx.clock.epochSeconds() + 3600) + ":dave";
        TurnTestClient client = fx.client("198.51.100.7", 40001)
                .credentials(username, CredentialStore.restPassword(utf8("rest-secret-1"), utf8(username)));

        StunResponse answer = client.allocate();

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keyMd5))
                .isTrue();
    }

    @Test
    void restCredentialPastItsExpiryIs401() {
        TurnFixture fx = TurnFixture.builder().secret("rest-secret-1").build();
        String username = (fx.clock.epochSeconds() + 60) + ":dave";
        TurnTestClient client = fx.client("198.51.100.7", 40001)
                .credentials(username, CredentialStore.restPassword(utf8("rest-secret-1"), utf8(username)));
        client.challenge();

        fx.advanceSeconds(120);
        StunResponse answer = client.allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);
        assertThat(fx.counters().authFailures()).isEqualTo(1);
    }

    @Test
    void restCredentialWithTheWrongSecretIs401() {
        TurnFixture fx = TurnFixture.builder().secret("rest-secret-1").build();
        String username = (fx.clock.epochSeconds() + 3600) + ":dave";
        TurnTestClient client = fx.client("198.51.100.7", 40001)
                .credentials(username, CredentialStore.restPassword(utf8("some-other-secret"), utf8(username)));

        assertThat(client.allocate().errorCode()).isEqualTo(ErrorCode.UNAUTHENTICATED);
    }

    @Test
    void restCredentialsOfBothSecretsWorkDuringRotation() {
        TurnFixture fx =
                TurnFixture.builder().secret("old-secret").secret("new-secret").build();
        String username = (fx.clock.epochSeconds() + 3600) + ":dave";
        TurnTestClient withOld = fx.client("198.51.100.7", 40001)
                .credentials(username, CredentialStore.restPassword(utf8("old-secret"), utf8(username)));
        TurnTestClient withNew = fx.client("198.51.100.8", 40001)
                .credentials(username, CredentialStore.restPassword(utf8("new-secret"), utf8(username)));

        assertThat(withOld.allocate().isSuccess()).isTrue();
        assertThat(withNew.allocate().isSuccess()).isTrue();
        assertThat(withOld.refresh().isSuccess()).isTrue();
    }

    @Test
    void passwordAlgorithmSha256WithTheOfferedListAllocatesAndIsAnsweredWithTheSha256Key() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.sha256Password = true;

        StunResponse answer = client.allocate();

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keySha256))
                .isTrue();
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keyMd5))
                .isFalse();
    }

    @Test
    void passwordAlgorithmsNotEchoingTheOfferIs400() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.challenge();
        client.sha256Password = true;
        client.passwordAlgorithms = new byte[] {0, 2, 0, 0};

        assertThat(client.allocate().errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void passwordAlgorithmWithoutPasswordAlgorithmsIs400() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.challenge();

        StunResponse answer = client.exchange(client.signed(
                StunMethod.ALLOCATE,
                udpTransport().andThen(w -> w.putBytes(AttributeType.PASSWORD_ALGORITHM, new byte[] {0, 2, 0, 0})),
                client.keySha256));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void messageIntegritySha256RequestIsAnsweredWithMessageIntegritySha256() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.sha256Integrity = true;

        StunResponse answer = client.allocate();

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.has(AttributeType.MESSAGE_INTEGRITY)).isFalse();
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY_SHA256, client.keyMd5))
                .isTrue();
    }

    @Test
    void userhashIdentifiesAStaticUser() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.userhash = true;

        StunResponse answer = client.allocate();

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keyMd5))
                .isTrue();
        assertThat(fx.engine.allocations().all().iterator().next().credential().user())
                .isEqualTo("alice");
    }

    @Test
    void everyAuthenticatedAnswerIsSignedWithTheUsersKey() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        var peer = io.tern.stun.address.TransportAddress.parse("203.0.113.5", 5000);

        for (StunResponse answer : java.util.List.of(
                client.createPermission(peer),
                client.channelBind(0x4001, peer),
                client.refresh(),
                client.allocate(),
                client.channelBind(0x3FFF, peer))) {
            assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keyMd5))
                    .as(answer.toString())
                    .isTrue();
        }
    }
}
