package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.attribute.ErrorCode;
import io.tern.turn.auth.NonceService;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Nonces across a fleet ({@code stateless-nonce-secret}): nodes holding the same key accept each
 * other's nonces, because the nonce carries its expiry in wall-clock time; clocks must agree within
 * the nonce lifetime. Each fixture is one node with its own clock.
 */
class FleetNonceTest {
    private static final String SHARED_KEY = "fleet-key";

    private static TurnTestClient carrying(TurnFixture node, TurnTestClient from) {
        TurnTestClient client = node.alice(from.address.toInetAddress().getHostAddress(), from.address.port());
        client.retryStaleNonce = false;
        client.nonce = from.nonce;
        client.realm = from.realm;
        client.passwordAlgorithms = from.passwordAlgorithms;
        return client;
    }

    @Test
    void nonceIssuedByNodeAIsAcceptedByNodeBSharingTheKey() {
        TurnFixture nodeA = TurnFixture.builder().nonceKey(SHARED_KEY).build();
        TurnFixture nodeB = TurnFixture.builder().nonceKey(SHARED_KEY).build();
        nodeB.advanceMillis(700);
        TurnTestClient atA = nodeA.alice("198.51.100.7", 40001);
        atA.challenge();

        assertThat(carrying(nodeB, atA).allocate().isSuccess())
                .as("no 438: node B accepts node A's nonce")
                .isTrue();
    }

    @Test
    void nonceOfANodeWithAnotherKeyIs438() {
        TurnFixture nodeA = TurnFixture.builder().nonceKey(SHARED_KEY).build();
        TurnFixture nodeB = TurnFixture.builder().nonceKey("another-key").build();
        TurnTestClient atA = nodeA.alice("198.51.100.7", 40001);
        atA.challenge();

        assertThat(carrying(nodeB, atA).allocate().errorCode()).isEqualTo(ErrorCode.STALE_NONCE);
    }

    @Test
    void nodeWhoseClockIsPastTheNonceLifetimeFindsItStale() {
        TurnFixture nodeA = TurnFixture.builder().nonceKey(SHARED_KEY).build();
        TurnFixture nodeB = TurnFixture.builder().nonceKey(SHARED_KEY).build();
        TurnTestClient atA = nodeA.alice("198.51.100.7", 40001);
        atA.challenge();

        nodeB.advanceSeconds(601);

        assertThat(carrying(nodeB, atA).allocate().errorCode()).isEqualTo(ErrorCode.STALE_NONCE);
    }

    @Test
    void nonceFromAClockTooFarAheadIsStaleButAFewSecondsAreTolerated() {
        TurnFixture nodeA = TurnFixture.builder().nonceKey(SHARED_KEY).build();
        TurnFixture behindByFive = TurnFixture.builder().nonceKey(SHARED_KEY).build();
        TurnFixture behindBySix = TurnFixture.builder().nonceKey(SHARED_KEY).build();
        nodeA.advanceSeconds(NonceService.MAX_CLOCK_AHEAD_SECONDS + 1);
        behindByFive.advanceSeconds(1);
        TurnTestClient atA = nodeA.alice("198.51.100.7", 40001);
        atA.challenge();

        assertThat(carrying(behindByFive, atA).allocate().isSuccess()).isTrue();
        assertThat(carrying(behindBySix, atA).allocate().errorCode()).isEqualTo(ErrorCode.STALE_NONCE);
    }

    @Test
    void keyFromSecretIsCoturnsDerivation() {
        // SHA-256("coturn-stateless-nonce-v1" || "s3cret"), computed independently with sha256sum.
        assertThat(HexFormat.of().formatHex(NonceService.keyFromSecret("s3cret")))
                .isEqualTo(EXPECTED_S3CRET_KEY);
    }

    private static final String EXPECTED_S3CRET_KEY =
            "dbc65744c951832781d767c62458c89ddabad7098a25d9c1160915623511c722";
}
