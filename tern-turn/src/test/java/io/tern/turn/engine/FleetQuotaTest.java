package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.attribute.ErrorCode;
import io.tern.turn.quota.LeaseDecision;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fleet-wide quotas as the engine sees them: an Allocate that passed the local quotas asks for a
 * lease ({@link Command#ACQUIRE_LEASE}) and is answered only once the fleet decided
 * ({@link TurnEngine#onLeaseDecided}); every allocation that asked gives its lease back when it
 * ends ({@link Command#RELEASE_LEASE}). The engine never talks to the fleet's store itself.
 */
class FleetQuotaTest {
    private static TurnFixture fleetNode(boolean failClosed, int localUserQuota) {
        return TurnFixture.builder()
                .userQuota(localUserQuota)
                .config(c -> c.clusterLeases(true, failClosed))
                .build();
    }

    @Test
    void allocateIsAnsweredOnlyOnceTheLeaseIsGranted() {
        TurnFixture fx = fleetNode(false, 0);
        TurnTestClient alice = fx.alice("198.51.100.7", 40001);

        assertThat(alice.allocate()).as("no answer while the fleet decides").isNull();
        assertThat(fx.transport.leaseRequests).containsValue("alice").hasSize(1);
        assertThat(fx.transport.open).as("the relay socket is bound meanwhile").hasSize(1);

        long leaseId = fx.transport.leaseRequests.keySet().iterator().next();
        fx.transport.decideLease(leaseId, LeaseDecision.GRANTED);

        List<StunResponse> answers = alice.received().stream()
                .map(m -> StunResponse.parse(m.bytes()))
                .toList();
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).isSuccess()).isTrue();
        assertThat(fx.engine.allocationCount()).isEqualTo(1);
    }

    @Test
    void aSpentFleetQuotaIs486AndGivesEverythingBack() {
        TurnFixture fx = fleetNode(false, 0);
        fx.transport.leaseAnswer = user -> LeaseDecision.REFUSED;

        StunResponse answer = fx.alice("198.51.100.7", 40001).allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.ALLOCATION_QUOTA_REACHED);
        assertThat(fx.counters().leaseRefusals()).isEqualTo(1);
        assertThat(fx.state.allocations()).as("local quota slot given back").isZero();
        assertThat(fx.transport.open).as("relay socket closed").isEmpty();
        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.releasedLeases).containsExactlyElementsOf(fx.transport.leaseRequests.keySet());
    }

    @Test
    void twoNodesSharingOneFleetCountNeverExceedTheUserQuota() {
        Map<String, Integer> fleet = new HashMap<>();
        TurnFixture nodeA = fleetNode(false, 0);
        TurnFixture nodeB = fleetNode(false, 0);
        for (TurnFixture node : List.of(nodeA, nodeB)) {
            node.transport.leaseAnswer = user -> {
                int held = fleet.getOrDefault(user, 0);
                if (held >= 2) {
                    return LeaseDecision.REFUSED;
                }
                fleet.put(user, held + 1);
                return LeaseDecision.GRANTED;
            };
        }

        TurnTestClient first = nodeA.alice("198.51.100.7", 40001).allocated();
        nodeB.alice("198.51.100.7", 40002).allocated();
        assertThat(nodeA.alice("198.51.100.7", 40003).allocate().errorCode())
                .isEqualTo(ErrorCode.ALLOCATION_QUOTA_REACHED);
        assertThat(nodeB.alice("198.51.100.7", 40004).allocate().errorCode())
                .isEqualTo(ErrorCode.ALLOCATION_QUOTA_REACHED);

        long firstLease = nodeA.transport.leaseRequests.keySet().iterator().next();
        assertThat(first.refresh(0).isSuccess()).isTrue();
        assertThat(nodeA.transport.releasedLeases).contains(firstLease);
    }

    @Test
    void anUnreachableFleetFallsBackToTheLocalQuotas() {
        TurnFixture fx = fleetNode(false, 1);
        fx.transport.leaseAnswer = user -> LeaseDecision.UNAVAILABLE;

        fx.alice("198.51.100.7", 40001).allocated();
        StunResponse second = fx.alice("198.51.100.7", 40002).allocate();

        assertThat(second.errorCode()).as("local user-quota 1").isEqualTo(ErrorCode.ALLOCATION_QUOTA_REACHED);
        assertThat(fx.counters().leasesUndecided()).isEqualTo(1);
        assertThat(fx.transport.leaseRequests)
                .as("the second never got past the local quota")
                .hasSize(1);
    }

    @Test
    void anUnreachableFleetFailingClosedIs508() {
        TurnFixture fx = fleetNode(true, 0);
        fx.transport.leaseAnswer = user -> LeaseDecision.UNAVAILABLE;

        StunResponse answer = fx.alice("198.51.100.7", 40001).allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
        assertThat(fx.counters().leasesUndecided()).isEqualTo(1);
        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.open).isEmpty();
        assertThat(fx.transport.releasedLeases).hasSize(1);
    }

    @Test
    void anExpiredAllocationReleasesItsLease() {
        TurnFixture fx = fleetNode(false, 0);
        fx.transport.leaseAnswer = user -> LeaseDecision.GRANTED;
        fx.alice("198.51.100.7", 40001).allocated();
        long leaseId = fx.transport.leaseRequests.keySet().iterator().next();

        fx.advanceSeconds(TurnEngineConfig.DEFAULT_LIFETIME_SECONDS - 1);
        assertThat(fx.transport.releasedLeases).isEmpty();
        fx.advanceSeconds(2);

        assertThat(fx.transport.releasedLeases).containsExactly(leaseId);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void aClientGoneBeforeTheDecisionReleasesTheLeaseAndALateGrantIsIgnored() {
        TurnFixture fx = fleetNode(false, 0);
        TurnTestClient tcp = fx.tcpClient("198.51.100.7", 40001, 5).credentials("alice", "alice-secret");
        assertThat(tcp.allocate()).isNull();
        long leaseId = fx.transport.leaseRequests.keySet().iterator().next();

        fx.connectionCloses(5);
        assertThat(fx.transport.releasedLeases).containsExactly(leaseId);
        fx.transport.decideLease(leaseId, LeaseDecision.GRANTED);

        assertThat(tcp.received()).as("nothing answered after the client left").isEmpty();
        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.state.allocations()).isZero();
        assertThat(fx.transport.open).isEmpty();
    }

    @Test
    void leaseIdsAreUniqueAndNameTheShard() {
        TurnFixture fx = TurnFixture.builder()
                .shard(3, 4)
                .config(c -> c.clusterLeases(true, false))
                .build();
        fx.transport.leaseAnswer = user -> LeaseDecision.GRANTED;
        for (int i = 0; i < 5; i++) {
            fx.alice("198.51.100.7", 40001 + i).allocated();
        }

        assertThat(fx.transport.leaseRequests.keySet())
                .hasSize(5)
                .allSatisfy(id -> assertThat(id >>> 56).isEqualTo(3));
    }

    @Test
    void withoutFleetQuotasNoLeaseIsAsked() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient alice = fx.alice("198.51.100.7", 40001).allocated();
        assertThat(alice.refresh(0).isSuccess()).isTrue();

        assertThat(fx.transport.leaseRequests).isEmpty();
        assertThat(fx.transport.releasedLeases).isEmpty();
    }
}
