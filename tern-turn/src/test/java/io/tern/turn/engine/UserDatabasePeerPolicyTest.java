package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.ErrorCode;
import io.tern.turn.policy.IpRange;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Peer ranges from a user database ({@code redis-userdb}'s {@code turn/denied-peer-ip/*} and
 * {@code turn/allowed-peer-ip/*}) swapped into the engine's policy while it runs.
 */
class UserDatabasePeerPolicyTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);

    @Test
    void aDeniedRangeFromTheDatabaseRefusesPermissionsUntilItIsRemoved() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        fx.shared.peerPolicy().replaceDynamic(List.of(), List.of(IpRange.parse("203.0.113.0-203.0.113.9")));
        assertThat(client.createPermission(PEER).errorCode()).isEqualTo(ErrorCode.FORBIDDEN);

        fx.shared.peerPolicy().replaceDynamic(List.of(), List.of());
        fx.advanceSeconds(1);
        assertThat(client.createPermission(PEER).isSuccess()).isTrue();
    }

    @Test
    void anAllowedRangeFromTheDatabaseWinsOverAConfiguredDenyAsInCoturn() {
        TurnFixture fx = TurnFixture.builder().deniedPeers("203.0.113.0/24").build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        assertThat(client.createPermission(PEER).errorCode()).isEqualTo(ErrorCode.FORBIDDEN);

        fx.shared.peerPolicy().replaceDynamic(List.of(IpRange.parse("203.0.113.5")), List.of());
        assertThat(client.createPermission(PEER).isSuccess()).isTrue();
        assertThat(client.createPermission(TransportAddress.parse("203.0.113.6", 5000))
                        .errorCode())
                .isEqualTo(ErrorCode.FORBIDDEN);
    }
}
