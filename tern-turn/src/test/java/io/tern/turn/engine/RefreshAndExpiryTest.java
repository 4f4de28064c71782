package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Refresh (RFC 8656 §8), allocation expiry from the timer wheel, and TCP connection close. */
class RefreshAndExpiryTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);
    private final TurnFixture fx = TurnFixture.create();

    @Test
    void allocationExpiresAtItsLifetime() {
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        int relayId = client.relayId();

        fx.advanceSeconds(599);
        assertThat(fx.engine.allocationCount()).isEqualTo(1);
        fx.advanceSeconds(2);

        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.open).isEmpty();
        assertThat(fx.transport.closed).containsExactly(relayId);
        assertThat(fx.transport.badCloses).isZero();
        assertThat(fx.counters().activeAllocations(TransportProtocol.UDP)).isZero();
        assertThat(fx.state.allocations()).isZero();
        assertThat(fx.state.portsInUse(false)).isZero();
        assertThat(client.refresh().errorCode()).isEqualTo(ErrorCode.ALLOCATION_MISMATCH);
    }

    /** More allocations than the command queue's first arrays hold, all expiring in one timer turn. */
    @Test
    void manyAllocationsExpiringTogetherAreAllClosed() {
        List<Integer> relayIds = allocateMany(150);

        fx.advanceSeconds(601);

        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.closed).containsExactlyInAnyOrderElementsOf(relayIds);
        assertThat(fx.transport.badCloses).isZero();
        assertThat(fx.state.portsInUse(false)).isZero();
    }

    @Test
    void closingTheEngineClosesEveryRelayInOneDrain() {
        List<Integer> relayIds = allocateMany(150);

        fx.engine.close();
        fx.transport.drain(fx.clock.nowNs());

        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.closed).containsExactlyInAnyOrderElementsOf(relayIds);
        assertThat(fx.transport.badCloses).isZero();
    }

    /** {@code n} allocations from 10 source addresses, so the per-IP 401 limit does not refuse any. */
    private List<Integer> allocateMany(int n) {
        List<Integer> relayIds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            relayIds.add(fx.alice("198.51.100." + (10 + i % 10), 40000 + i)
                    .allocated()
                    .relayId());
        }
        assertThat(fx.engine.allocationCount()).isEqualTo(n);
        return relayIds;
    }

    @Test
    void refreshExtendsTheLifetime() {
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        fx.advanceSeconds(500);

        StunResponse answer = client.refresh();

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.lifetimeSeconds()).isEqualTo(600);
        fx.advanceSeconds(300);
        assertThat(fx.engine.allocationCount())
                .as("alive past the original expiry")
                .isEqualTo(1);
        assertThat(fx.transport.open).hasSize(1);
        fx.advanceSeconds(301);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void refreshWithARequestedLifetimeIsClamped() {
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.refresh(99999).lifetimeSeconds()).isEqualTo(3600);
        fx.advanceSeconds(3599);
        assertThat(fx.engine.allocationCount()).isEqualTo(1);
        fx.advanceSeconds(2);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void refreshWithLifetimeZeroDeletesTheAllocation() {
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        int relayId = client.relayId();

        StunResponse answer = client.refresh(0);

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.lifetimeSeconds()).isZero();
        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.closed).containsExactly(relayId);
        assertThat(fx.state.allocations()).isZero();
        assertThat(fx.state.portsInUse(false)).isZero();
        assertThat(fx.counters().activeAllocations(TransportProtocol.UDP)).isZero();
        assertThat(fx.engine.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void retransmittedDeletingRefreshIsAnsweredFromTheCacheNot437() {
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        byte[] request = client.signedRequest(StunMethod.REFRESH, w -> w.putInt(AttributeType.LIFETIME, 0));

        StunResponse first = client.exchange(request);
        StunResponse second = client.exchange(request);

        assertThat(first.isSuccess()).isTrue();
        assertThat(second.bytes).isEqualTo(first.bytes);
        assertThat(fx.transport.badCloses).isZero();
    }

    @Test
    void requestsFromAFiveTupleWithoutAllocationAre437() {
        TurnTestClient client = fx.alice("198.51.100.7", 40001);

        assertThat(client.refresh().errorCode()).isEqualTo(ErrorCode.ALLOCATION_MISMATCH);
        assertThat(client.createPermission(PEER).errorCode()).isEqualTo(ErrorCode.ALLOCATION_MISMATCH);
        assertThat(client.channelBind(0x4000, PEER).errorCode()).isEqualTo(ErrorCode.ALLOCATION_MISMATCH);
    }

    @Test
    void allocationOfAnotherPortIsNotThisClients() {
        fx.alice("198.51.100.7", 40001).allocated();

        assertThat(fx.alice("198.51.100.7", 40002).refresh().errorCode()).isEqualTo(ErrorCode.ALLOCATION_MISMATCH);
    }

    @Test
    void refreshWithAnotherUsernameIs441() {
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        client.credentials("bob", "bob-secret");

        StunResponse answer = client.refresh();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.WRONG_CREDENTIALS);
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keyMd5))
                .isTrue();
        assertThat(client.refresh(0).errorCode())
                .as("bob can't delete alice's allocation")
                .isEqualTo(ErrorCode.WRONG_CREDENTIALS);
        assertThat(fx.engine.allocationCount()).isEqualTo(1);
    }

    @Test
    void refreshForAFamilyTheAllocationLacksIs443() {
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        StunResponse answer =
                client.request(StunMethod.REFRESH, w -> w.putInt(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x02 << 24));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
        assertThat(client.request(StunMethod.REFRESH, w -> w.putInt(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x01 << 24))
                        .isSuccess())
                .isTrue();
    }

    @Test
    void nextDeadlineIsFiniteOnlyWhileSomethingIsScheduled() {
        assertThat(fx.engine.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);

        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        long deadline = fx.engine.nextDeadlineNs();
        assertThat(deadline).isLessThan(Long.MAX_VALUE);
        assertThat(deadline).isLessThanOrEqualTo(fx.clock.nowNs() + TimeUnit.SECONDS.toNanos(600));

        fx.advanceSeconds(601);
        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.engine.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
        assertThat(client.allocate().isSuccess()).isTrue();
        assertThat(fx.engine.nextDeadlineNs())
                .isBetween(fx.clock.nowNs(), fx.clock.nowNs() + TimeUnit.SECONDS.toNanos(600));
    }

    @Test
    void drivingTheEngineAtItsDeadlinesExpiresOnTime() {
        fx.alice("198.51.100.7", 40001).allocated();
        long expiry = fx.clock.nowNs() + TimeUnit.SECONDS.toNanos(600);

        int calls = 0;
        while (fx.engine.allocationCount() > 0 && calls < 100_000) {
            long next = fx.engine.nextDeadlineNs();
            fx.clock.advanceNs(next - fx.clock.nowNs());
            fx.engine.onTimeout(fx.clock.nowNs());
            fx.transport.drain(fx.clock.nowNs());
            calls++;
        }

        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.clock.nowNs()).isEqualTo(expiry);
        // The deadline is the allocation's own expiry, not the next tick of a fixed timer.
        assertThat(calls).isEqualTo(1);
    }

    @Test
    void closingTheTcpConnectionDeletesItsAllocation() {
        TurnTestClient tcp = fx.tcpClient("198.51.100.7", 40001, 9).credentials("alice", "alice-secret");
        assertThat(tcp.allocate().isSuccess()).isTrue();
        int relayId = tcp.relayId();

        fx.connectionCloses(9);

        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.closed).containsExactly(relayId);
        assertThat(fx.counters().activeAllocations(TransportProtocol.TCP)).isZero();
        assertThat(fx.state.allocations()).isZero();
        fx.advanceSeconds(700);
        assertThat(fx.transport.badCloses).isZero();
    }

    @Test
    void closeDeletesEveryAllocation() {
        fx.alice("198.51.100.7", 40001).allocated().createPermission(PEER);
        fx.alice("2001:db8:42::7", 40001).allocated().channelBind(0x4000, PEER);

        fx.engine.close();
        fx.transport.drain(fx.clock.nowNs());

        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.open).isEmpty();
        assertThat(fx.engine.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void allocationOfAnIpv6ClientExpiresToo() {
        TurnTestClient client = fx.alice("2001:db8:42::7", 40001).allocated();
        assertThat(client.refresh().isSuccess()).isTrue();

        fx.advanceSeconds(601);

        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.open).isEmpty();
    }
}
