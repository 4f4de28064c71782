package io.tern.turn.engine;

import static io.tern.turn.testing.TurnTestClient.udpTransport;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Allocate (RFC 8656 §7) with its options: lifetimes, EVEN-PORT, reservations, address families, quotas. */
class AllocateTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);

    private static Consumer<StunMessageWriter> family(int type, int wireFamily) {
        return w -> w.putInt(type, wireFamily << 24);
    }

    private static Consumer<StunMessageWriter> evenPort(boolean reserveNext) {
        return w -> w.putBytes(AttributeType.EVEN_PORT, new byte[] {(byte) (reserveNext ? 0x80 : 0)});
    }

    private static Consumer<StunMessageWriter> token(byte[] token) {
        return w -> w.putBytes(AttributeType.RESERVATION_TOKEN, token);
    }

    @Test
    void allocateAnswersRelayedAddressLifetimeAndMappedAddress() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);

        StunResponse answer = client.allocate();

        assertThat(answer.isSuccess()).isTrue();
        assertThat(fx.transport.open).hasSize(1);
        TransportAddress bound = fx.transport.open.values().iterator().next();
        assertThat(bound.sameIp(TransportAddress.parse(TurnFixture.RELAY_V4, 0)))
                .isTrue();
        assertThat(bound.port()).isBetween(TurnFixture.PORT_MIN, TurnFixture.PORT_MAX);
        assertThat(answer.xorAddresses(AttributeType.XOR_RELAYED_ADDRESS)).containsExactly(bound);
        assertThat(answer.lifetimeSeconds()).isEqualTo(600);
        assertThat(answer.xorAddress(AttributeType.XOR_MAPPED_ADDRESS)).isEqualTo(client.address);
        assertThat(fx.engine.allocationCount()).isEqualTo(1);
        assertThat(fx.counters().activeAllocations(TransportProtocol.UDP)).isEqualTo(1);
        assertThat(fx.state.allocations()).isEqualTo(1);
    }

    @Test
    void advertisedAddressReplacesTheBoundIpButKeepsThePort() {
        TurnFixture fx = TurnFixture.builder()
                .config(c -> c.advertisedAddressV4(TransportAddress.parse("203.0.113.200", 0)))
                .build();

        StunResponse answer = fx.alice("198.51.100.7", 40001).allocate();

        TransportAddress bound = fx.transport.open.values().iterator().next();
        assertThat(answer.xorAddress(AttributeType.XOR_RELAYED_ADDRESS))
                .isEqualTo(TransportAddress.parse("203.0.113.200", bound.port()));
    }

    @ParameterizedTest
    @CsvSource({"1200, 1200", "99999, 3600", "10, 600", "600, 600", "3600, 3600"})
    void requestedLifetimeIsClampedBetweenDefaultAndMax(int requested, int granted) {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer =
                fx.alice("198.51.100.7", 40001).allocate(w -> w.putInt(AttributeType.LIFETIME, requested));

        assertThat(answer.lifetimeSeconds()).isEqualTo(granted);
    }

    @Test
    void missingRequestedTransportIs400() {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer = fx.alice("198.51.100.7", 40001).request(StunMethod.ALLOCATE, w -> {});

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(fx.transport.openedHistory).isEmpty();
    }

    @Test
    void requestedTransportTcpIs442() {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer = fx.alice("198.51.100.7", 40001)
                .request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 6 << 24));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.UNSUPPORTED_TRANSPORT_PROTOCOL);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void secondAllocateOnTheSameFiveTupleIs437() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        StunResponse answer = client.allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.ALLOCATION_MISMATCH);
        assertThat(fx.transport.openedHistory).hasSize(1);
        assertThat(fx.state.allocations()).isEqualTo(1);
    }

    @Test
    void retransmittedAllocateGetsTheCachedAnswerAndOpensOneSocket() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);
        client.challenge();
        byte[] request = client.signedRequest(StunMethod.ALLOCATE, udpTransport());

        StunResponse first = client.exchange(request);
        fx.advanceMillis(500);
        StunResponse second = client.exchange(request);

        assertThat(first.isSuccess()).isTrue();
        assertThat(second.bytes).isEqualTo(first.bytes);
        assertThat(fx.transport.openedHistory).hasSize(1);
        assertThat(fx.engine.allocationCount()).isEqualTo(1);
    }

    @Test
    void evenPortGivesAnEvenPort() {
        TurnFixture fx = TurnFixture.create();
        for (int i = 0; i < 20; i++) {
            TurnTestClient client = fx.alice("198.51.100.7", 40000 + i);
            StunResponse answer = client.allocate(evenPort(false));
            assertThat(answer.isSuccess()).isTrue();
            assertThat(client.relayed.port() % 2).as(client.relayed.toString()).isZero();
            assertThat(answer.has(AttributeType.RESERVATION_TOKEN)).isFalse();
        }
    }

    @Test
    void evenPortWithReserveGivesATokenThatAnotherClientRedeemsForTheNextPort() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient first = fx.alice("198.51.100.7", 40001);
        StunResponse reserved = first.allocate(evenPort(true));
        assertThat(reserved.isSuccess()).isTrue();
        assertThat(first.relayed.port() % 2).isZero();
        byte[] token = reserved.value(AttributeType.RESERVATION_TOKEN);
        assertThat(token).hasSize(8);

        TurnTestClient second = fx.client("198.51.100.8", 40001).credentials("bob", "bob-secret");
        StunResponse redeemed = second.allocate(token(token));

        assertThat(redeemed.isSuccess()).isTrue();
        assertThat(second.relayed).isEqualTo(TransportAddress.parse(TurnFixture.RELAY_V4, first.relayed.port() + 1));
        TurnTestClient third = fx.client("198.51.100.9", 40001).credentials("bob", "bob-secret");
        assertThat(third.allocate(token(token)).errorCode())
                .as("a token is good once")
                .isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
    }

    @Test
    void reservedPortIsNotHandedToOrdinaryAllocations() {
        TurnFixture fx = TurnFixture.builder().ports(50000, 50003).build();
        TurnTestClient first = fx.alice("198.51.100.7", 40001);
        assertThat(first.allocate(evenPort(true)).isSuccess()).isTrue();

        for (int i = 0; i < 2; i++) {
            TurnTestClient other = fx.alice("198.51.100.8", 40000 + i);
            assertThat(other.allocate().isSuccess()).isTrue();
            assertThat(other.relayed.port()).isNotEqualTo(first.relayed.port() + 1);
        }
        assertThat(fx.alice("198.51.100.8", 40009).allocate().errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
    }

    @Test
    void unclaimedReservationLapsesAfterAboutThirtySeconds() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient first = fx.alice("198.51.100.7", 40001);
        byte[] token = first.allocate(evenPort(true)).value(AttributeType.RESERVATION_TOKEN);

        fx.advanceSeconds(31);

        assertThat(fx.state.reservations()).isZero();
        assertThat(fx.alice("198.51.100.8", 40001).allocate(token(token)).errorCode())
                .isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
    }

    @Test
    void unknownReservationTokenIs508AndReleasesTheQuota() {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer = fx.alice("198.51.100.7", 40001).allocate(token(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
        assertThat(fx.state.allocations()).isZero();
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void reservationTokenOfTheWrongLengthIs400() {
        TurnFixture fx = TurnFixture.create();

        assertThat(fx.alice("198.51.100.7", 40001)
                        .allocate(token(new byte[] {1, 2, 3, 4}))
                        .errorCode())
                .isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(fx.state.allocations()).isZero();
    }

    @Test
    void reservationTokenTogetherWithEvenPortIs400() {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer =
                fx.alice("198.51.100.7", 40001).allocate(token(new byte[8]).andThen(evenPort(false)));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void requestedFamilyIpv6WithoutAnIpv6RelayIs440() {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer =
                fx.alice("198.51.100.7", 40001).allocate(family(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x02));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED);
        assertThat(fx.state.allocations()).isZero();
    }

    @Test
    void unknownRequestedFamilyIs440() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();

        StunResponse answer =
                fx.alice("198.51.100.7", 40001).allocate(family(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x03));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED);
    }

    @Test
    void requestedFamilyIpv4IsAnOrdinaryAllocation() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();

        StunResponse answer =
                fx.alice("198.51.100.7", 40001).allocate(family(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x01));

        assertThat(answer.xorAddresses(AttributeType.XOR_RELAYED_ADDRESS))
                .singleElement()
                .satisfies(a -> assertThat(a.isIpv4()).isTrue());
    }

    @Test
    void requestedFamilyIpv6WithAnIpv6RelayAllocatesIpv6() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);

        StunResponse answer = client.allocate(family(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x02));

        assertThat(answer.isSuccess()).isTrue();
        List<TransportAddress> relayed = answer.xorAddresses(AttributeType.XOR_RELAYED_ADDRESS);
        assertThat(relayed).hasSize(1);
        assertThat(relayed.get(0).sameIp(TransportAddress.parse(TurnFixture.RELAY_V6, 0)))
                .isTrue();
        assertThat(fx.transport.open.values()).containsExactly(relayed.get(0));
    }

    @Test
    void additionalFamilyIpv6GivesADualAllocation() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();

        StunResponse answer =
                fx.alice("198.51.100.7", 40001).allocate(family(AttributeType.ADDITIONAL_ADDRESS_FAMILY, 0x02));

        assertThat(answer.isSuccess()).isTrue();
        List<TransportAddress> relayed = answer.xorAddresses(AttributeType.XOR_RELAYED_ADDRESS);
        assertThat(relayed).hasSize(2);
        assertThat(relayed.get(0).isIpv4()).isTrue();
        assertThat(relayed.get(1).isIpv4()).isFalse();
        assertThat(fx.transport.open.values()).containsExactlyInAnyOrderElementsOf(relayed);
        assertThat(answer.has(AttributeType.ADDRESS_ERROR_CODE)).isFalse();
    }

    @Test
    void additionalFamilyWithoutAnIpv6RelayAllocatesIpv4WithAddressErrorCode440() {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer =
                fx.alice("198.51.100.7", 40001).allocate(family(AttributeType.ADDITIONAL_ADDRESS_FAMILY, 0x02));

        assertThat(answer.isSuccess()).isTrue();
        assertThat(answer.xorAddresses(AttributeType.XOR_RELAYED_ADDRESS))
                .singleElement()
                .satisfies(a -> assertThat(a.isIpv4()).isTrue());
        byte[] addressError = answer.value(AttributeType.ADDRESS_ERROR_CODE);
        assertThat(addressError).isNotNull();
        assertThat(addressError[0]).as("family").isEqualTo((byte) 0x02);
        assertThat((addressError[2] & 0x07) * 100 + (addressError[3] & 0xFF)).isEqualTo(440);
    }

    @Test
    void additionalFamilyIpv4Is400() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();

        assertThat(fx.alice("198.51.100.7", 40001)
                        .allocate(family(AttributeType.ADDITIONAL_ADDRESS_FAMILY, 0x01))
                        .errorCode())
                .isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void requestedAndAdditionalFamilyTogetherIs400() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();

        StunResponse answer = fx.alice("198.51.100.7", 40001)
                .allocate(family(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x01)
                        .andThen(family(AttributeType.ADDITIONAL_ADDRESS_FAMILY, 0x02)));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(fx.transport.openedHistory).isEmpty();
    }

    @Test
    void dontFragmentIsAccepted() {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer = fx.alice("198.51.100.7", 40001).allocate(w -> w.putEmpty(AttributeType.DONT_FRAGMENT));

        assertThat(answer.isSuccess()).isTrue();
    }

    @Test
    void userQuotaIs486AndFreesUpWhenAnAllocationGoes() {
        TurnFixture fx = TurnFixture.builder().userQuota(2).build();
        TurnTestClient first = fx.alice("198.51.100.7", 40001).allocated();
        fx.alice("198.51.100.7", 40002).allocated();

        assertThat(fx.alice("198.51.100.7", 40003).allocate().errorCode())
                .isEqualTo(ErrorCode.ALLOCATION_QUOTA_REACHED);
        assertThat(fx.client("198.51.100.7", 40004)
                        .credentials("bob", "bob-secret")
                        .allocate()
                        .isSuccess())
                .as("another user has its own quota")
                .isTrue();

        assertThat(first.refresh(0).isSuccess()).isTrue();
        assertThat(fx.alice("198.51.100.7", 40005).allocate().isSuccess()).isTrue();
    }

    @Test
    void totalQuotaIs486() {
        TurnFixture fx = TurnFixture.builder().totalQuota(2).build();
        fx.alice("198.51.100.7", 40001).allocated();
        fx.client("198.51.100.8", 40001).credentials("bob", "bob-secret").allocated();

        StunResponse answer = fx.client("198.51.100.9", 40001)
                .credentials("bob", "bob-secret")
                .allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.ALLOCATION_QUOTA_REACHED);
        assertThat(fx.transport.openedHistory).hasSize(2);
    }

    @Test
    void restUsersShareTheQuotaOfTheirUserPart() {
        TurnFixture fx = TurnFixture.builder().secret("s").userQuota(1).build();
        String first = (fx.clock.epochSeconds() + 100) + ":dave";
        String second = (fx.clock.epochSeconds() + 200) + ":dave";
        fx.client("198.51.100.7", 40001)
                .credentials(first, io.tern.turn.auth.CredentialStore.restPassword("s".getBytes(), first.getBytes()))
                .allocated();

        StunResponse answer = fx.client("198.51.100.7", 40002)
                .credentials(second, io.tern.turn.auth.CredentialStore.restPassword("s".getBytes(), second.getBytes()))
                .allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.ALLOCATION_QUOTA_REACHED);
    }

    @Test
    void exhaustedPortRangeIs508() {
        TurnFixture fx = TurnFixture.builder().ports(50000, 50000).build();
        fx.alice("198.51.100.7", 40001).allocated();

        StunResponse answer = fx.alice("198.51.100.7", 40002).allocate();

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
        assertThat(fx.state.allocations()).as("quota given back").isEqualTo(1);
    }

    @Test
    void portRefusedByTheSocketLayerIsSkipped() {
        TurnFixture fx = TurnFixture.builder().ports(50000, 50001).build();
        fx.transport.refusedPorts.add(50000);
        for (int i = 0; i < 20; i++) {
            TurnTestClient client = fx.alice("198.51.100.7", 40000 + i);
            StunResponse answer = client.allocate();
            assertThat(answer.isSuccess()).as("round " + i + ": " + answer).isTrue();
            assertThat(client.relayed.port()).isEqualTo(50001);
            assertThat(client.refresh(0).isSuccess()).isTrue();
        }
    }

    @Test
    void freePortIsFoundAmongManyRefusedOnes() {
        TurnFixture fx = TurnFixture.builder().ports(50000, 50015).build();
        for (int port = 50000; port < 50015; port++) {
            fx.transport.refusedPorts.add(port);
        }
        for (int i = 0; i < 20; i++) {
            TurnTestClient client = fx.alice("198.51.100.7", 40000 + i);
            StunResponse answer = client.allocate();
            assertThat(answer.isSuccess()).as("round " + i + ": " + answer).isTrue();
            assertThat(client.relayed.port()).isEqualTo(50015);
            assertThat(client.refresh(0).isSuccess()).isTrue();
        }
        assertThat(fx.state.portsInUse(false)).isZero();
    }

    @Test
    void onlyPortRefusedIs508() {
        TurnFixture fx = TurnFixture.builder().ports(50000, 50000).build();
        fx.transport.refusedPorts.add(50000);

        assertThat(fx.alice("198.51.100.7", 40001).allocate().errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
        assertThat(fx.state.portsInUse(false)).isZero();
        assertThat(fx.state.allocations()).isZero();
    }

    @Test
    void drainModeRefusesNewAllocationsWhileExistingOnesKeepRelaying() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient existing = fx.alice("198.51.100.7", 40001).allocated();
        assertThat(existing.createPermission(PEER).isSuccess()).isTrue();

        fx.draining.set(true);

        assertThat(fx.alice("198.51.100.8", 40001).allocate().errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
        existing.sendIndication(PEER, new byte[] {1, 2, 3});
        assertThat(fx.transport.takePeer())
                .singleElement()
                .satisfies(p -> assertThat(p.bytes()).containsExactly(1, 2, 3));
        fx.peerSends(existing.relayId(), PEER, new byte[] {4, 5});
        assertThat(existing.received()).hasSize(1);
        assertThat(existing.refresh().isSuccess()).isTrue();
        assertThat(fx.engine.allocationCount()).isEqualTo(1);
    }

    @Test
    void unknownComprehensionRequiredAttributeIs420ListingIt() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001);

        StunResponse answer =
                client.allocate(w -> w.putBytes(0x7F01, new byte[] {9}).putBytes(0x0033, new byte[4]));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.UNKNOWN_ATTRIBUTE);
        assertThat(answer.unknownAttributes()).containsExactly(0x7F01, 0x0033);
        assertThat(answer.integrityValid(AttributeType.MESSAGE_INTEGRITY, client.keyMd5))
                .isTrue();
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void unknownComprehensionOptionalAttributeIsIgnored() {
        TurnFixture fx = TurnFixture.create();

        StunResponse answer = fx.alice("198.51.100.7", 40001).allocate(w -> w.putBytes(0xC0DE, new byte[] {9}));

        assertThat(answer.isSuccess()).isTrue();
    }

    @Test
    void allocationOverTcpIsKeyedByItsConnection() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient tcp = fx.tcpClient("198.51.100.7", 40001, 77).credentials("alice", "alice-secret");

        assertThat(tcp.allocate().isSuccess()).isTrue();

        assertThat(fx.counters().activeAllocations(TransportProtocol.TCP)).isEqualTo(1);
        assertThat(fx.engine.allocations().find(TurnFixture.TCP_LISTENER, 77, tcp.address))
                .isNotNull();
    }
}
