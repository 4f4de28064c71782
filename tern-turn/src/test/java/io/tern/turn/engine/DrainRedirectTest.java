package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.turn.redirect.AlternateServers;
import io.tern.turn.redirect.AlternateServers.Mode;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import org.junit.jupiter.api.Test;

/**
 * 300 Try Alternate (RFC 8489 §10, RFC 8656 §7.2): a draining node sends new Allocates to an
 * alternate while its existing allocations keep relaying and refreshing until they end; coturn's
 * static alternate servers redirect every Allocate, round robin.
 */
class DrainRedirectTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);
    private static final TransportAddress ALT_A = TransportAddress.parse("192.0.2.21", 3478);
    private static final TransportAddress ALT_B = TransportAddress.parse("192.0.2.22", 3479);
    private static final TransportAddress ALT_V6 = TransportAddress.parse("2001:db8::21", 3478);
    private static final TransportAddress ALT_TCP = TransportAddress.parse("192.0.2.31", 3478);

    private final TurnFixture fx = TurnFixture.create();

    private void alternates(Mode mode, TransportProtocol transport, TransportAddress... addresses) {
        AlternateServers.Builder b = AlternateServers.builder(mode);
        for (TransportAddress address : addresses) {
            b.add(transport, address);
        }
        fx.shared.alternates().set(b.build());
    }

    @Test
    void drainingNodeAnswersNewAllocatesWith300NamingTheAlternate() {
        alternates(Mode.WHILE_DRAINING, TransportProtocol.UDP, ALT_A);
        fx.draining.set(true);
        TurnTestClient client = fx.alice("198.51.100.7", 40001);

        StunResponse answer = client.allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.TRY_ALTERNATE);
        assertThat(answer.addresses(AttributeType.ALTERNATE_SERVER)).containsExactly(ALT_A);
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keyMd5))
                .as("the 300 answers an authenticated request and is signed")
                .isTrue();
        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.state.allocations()).as("no quota slot taken").isZero();
        assertThat(fx.state.portsInUse(false)).isZero();
    }

    @Test
    void notDrainingNodeAllocatesDespiteDrainOnlyAlternates() {
        alternates(Mode.WHILE_DRAINING, TransportProtocol.UDP, ALT_A);

        assertThat(fx.alice("198.51.100.7", 40001).allocate().isSuccess()).isTrue();
    }

    @Test
    void existingAllocationKeepsRelayingAndRefreshingWhileDrainingUntilItExpires() {
        alternates(Mode.WHILE_DRAINING, TransportProtocol.UDP, ALT_A);
        TurnTestClient existing = fx.alice("198.51.100.7", 40001).allocated();
        assertThat(existing.createPermission(PEER).isSuccess()).isTrue();

        fx.draining.set(true);
        assertThat(fx.alice("198.51.100.8", 40001).allocate().errorCode()).isEqualTo(ErrorCode.TRY_ALTERNATE);

        fx.advanceSeconds(500);
        assertThat(existing.refresh().isSuccess())
                .as("refresh still works while draining")
                .isTrue();
        assertThat(existing.createPermission(PEER).isSuccess()).isTrue();
        fx.advanceSeconds(200);
        existing.sendIndication(PEER, new byte[] {1, 2, 3});
        assertThat(fx.transport.takePeer())
                .singleElement()
                .satisfies(p -> assertThat(p.bytes()).containsExactly(1, 2, 3));
        fx.peerSends(existing.relayId(), PEER, new byte[] {4, 5});
        assertThat(existing.received()).hasSize(1);
        assertThat(fx.engine.allocationCount()).isEqualTo(1);

        fx.advanceSeconds(401);

        assertThat(fx.engine.allocationCount())
                .as("the drain's exit condition: the last allocation has ended")
                .isZero();
        assertThat(fx.state.allocations()).isZero();
    }

    @Test
    void drainingWithoutAnAlternateOfTheClientsFamilyIs508() {
        alternates(Mode.WHILE_DRAINING, TransportProtocol.UDP, ALT_V6);
        fx.draining.set(true);

        assertThat(fx.alice("198.51.100.7", 40001).allocate().errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
    }

    @Test
    void alternateOfTheClientsFamilyComesFirstAndOneOfTheOtherFamilyFollows() {
        alternates(Mode.WHILE_DRAINING, TransportProtocol.UDP, ALT_V6, ALT_A);
        fx.draining.set(true);

        StunResponse answer = fx.alice("198.51.100.7", 40001).allocate();

        assertThat(answer.addresses(AttributeType.ALTERNATE_SERVER)).containsExactly(ALT_A, ALT_V6);
    }

    @Test
    void staticAlternatesRedirectEveryAllocateRoundRobinAsCoturnDoes() {
        alternates(Mode.ALWAYS, TransportProtocol.UDP, ALT_A, ALT_B, ALT_A);

        StunResponse first = fx.alice("198.51.100.7", 40001).allocate();
        StunResponse second = fx.alice("198.51.100.8", 40001).allocate();
        StunResponse third = fx.alice("198.51.100.9", 40001).allocate();
        StunResponse fourth = fx.alice("198.51.100.10", 40001).allocate();

        assertThat(first.addresses(AttributeType.ALTERNATE_SERVER)).containsExactly(ALT_A);
        assertThat(second.addresses(AttributeType.ALTERNATE_SERVER)).containsExactly(ALT_B);
        assertThat(third.addresses(AttributeType.ALTERNATE_SERVER)).containsExactly(ALT_A);
        assertThat(fourth.addresses(AttributeType.ALTERNATE_SERVER)).containsExactly(ALT_A);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void alternatesAreChosenByTheClientsTransport() {
        alternates(Mode.ALWAYS, TransportProtocol.TCP, ALT_TCP);

        assertThat(fx.alice("198.51.100.7", 40001).allocate().isSuccess())
                .as("UDP clients have no alternate")
                .isTrue();
        StunResponse tcp = fx.tcpClient("198.51.100.8", 40001, 77)
                .credentials("alice", "alice-secret")
                .allocate();
        assertThat(tcp.errorCode()).isEqualTo(ErrorCode.TRY_ALTERNATE);
        assertThat(tcp.addresses(AttributeType.ALTERNATE_SERVER)).containsExactly(ALT_TCP);
    }

    @Test
    void redirectComesAfterTheAllocationMismatchCheck() {
        TurnTestClient existing = fx.alice("198.51.100.7", 40001).allocated();
        alternates(Mode.ALWAYS, TransportProtocol.UDP, ALT_A);

        assertThat(existing.allocate().errorCode()).isEqualTo(ErrorCode.ALLOCATION_MISMATCH);
    }

    @Test
    void leavingDrainModeAllocatesAgain() {
        alternates(Mode.WHILE_DRAINING, TransportProtocol.UDP, ALT_A);
        fx.draining.set(true);
        assertThat(fx.alice("198.51.100.7", 40001).allocate().errorCode()).isEqualTo(ErrorCode.TRY_ALTERNATE);

        fx.draining.set(false);

        assertThat(fx.alice("198.51.100.7", 40001).allocate().isSuccess()).isTrue();
    }
}
