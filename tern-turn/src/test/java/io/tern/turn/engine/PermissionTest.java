package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunHeaderFlyweight;
import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import org.junit.jupiter.api.Test;

/** CreatePermission (RFC 8656 §9) and the peer address policy it enforces. */
class PermissionTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);
    private static final TransportAddress PEER_2 = TransportAddress.parse("203.0.113.6", 6000);
    private static final TransportAddress PEER_3 = TransportAddress.parse("203.0.113.7", 7000);

    private static boolean peerDataReaches(TurnFixture fx, TurnTestClient client, TransportAddress from) {
        client.received();
        fx.peerSends(client.relayId(), from, new byte[] {42});
        return !client.received().isEmpty();
    }

    @Test
    void onePermissionLetsThatPeersDataThroughFromAnyPort() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        assertThat(peerDataReaches(fx, client, PEER)).isFalse();

        StunResponse answer = client.createPermission(PEER);

        assertThat(answer.isSuccess()).isTrue();
        assertThat(peerDataReaches(fx, client, PEER)).isTrue();
        assertThat(peerDataReaches(fx, client, TransportAddress.parse("203.0.113.5", 9999)))
                .isTrue();
        assertThat(peerDataReaches(fx, client, PEER_2)).isFalse();
    }

    @Test
    void severalPeersInOneRequest() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.createPermission(PEER, PEER_2, PEER_3).isSuccess()).isTrue();

        assertThat(peerDataReaches(fx, client, PEER)).isTrue();
        assertThat(peerDataReaches(fx, client, PEER_2)).isTrue();
        assertThat(peerDataReaches(fx, client, PEER_3)).isTrue();
    }

    @Test
    void noPeerAddressIs400() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.createPermission().errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void peerOfAFamilyTheAllocationLacksIs443() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.createPermission(TransportAddress.parse("2001:db8:1::5", 5000))
                        .errorCode())
                .isEqualTo(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
        assertThat(client.createPermission(PEER, TransportAddress.parse("2001:db8:1::5", 5000))
                        .errorCode())
                .as("all or nothing")
                .isEqualTo(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
        assertThat(peerDataReaches(fx, client, PEER)).isFalse();
    }

    @Test
    void loopbackPeerIsDeniedByDefault() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.createPermission(TransportAddress.parse("127.0.0.1", 5000))
                        .errorCode())
                .isEqualTo(ErrorCode.FORBIDDEN);
        assertThat(client.createPermission(PEER, TransportAddress.parse("127.0.0.2", 5000))
                        .errorCode())
                .isEqualTo(ErrorCode.FORBIDDEN);
        assertThat(peerDataReaches(fx, client, PEER))
                .as("nothing installed from a refused request")
                .isFalse();
    }

    @Test
    void loopbackPeerIsAllowedWithAllowLoopback() {
        TurnFixture fx = TurnFixture.builder().allowLoopback().build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.createPermission(TransportAddress.parse("127.0.0.1", 5000))
                        .isSuccess())
                .isTrue();
    }

    @Test
    void deniedPeerRangeIs403() {
        TurnFixture fx =
                TurnFixture.builder().deniedPeers("203.0.113.0-203.0.113.10").build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.createPermission(PEER).errorCode()).isEqualTo(ErrorCode.FORBIDDEN);
        assertThat(client.createPermission(TransportAddress.parse("203.0.113.11", 1))
                        .isSuccess())
                .isTrue();
    }

    @Test
    void defaultDeniedRangesAre403() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        for (String ip : new String[] {"0.0.0.0", "169.254.1.1", "224.0.0.1", "255.255.255.255"}) {
            assertThat(client.createPermission(TransportAddress.parse(ip, 5000)).errorCode())
                    .as(ip)
                    .isEqualTo(ErrorCode.FORBIDDEN);
        }
    }

    @Test
    void allowedPeerRangeOverridesTheDefaultDeny() {
        TurnFixture fx = TurnFixture.builder()
                .allowedPeers("169.254.0.0/16")
                .allowedPeers("127.0.0.5")
                .build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.createPermission(TransportAddress.parse("169.254.1.1", 5000))
                        .isSuccess())
                .isTrue();
        assertThat(client.createPermission(TransportAddress.parse("127.0.0.5", 5000))
                        .isSuccess())
                .isTrue();
        assertThat(client.createPermission(TransportAddress.parse("127.0.0.6", 5000))
                        .errorCode())
                .isEqualTo(ErrorCode.FORBIDDEN);
    }

    @Test
    void ipv4MappedIpv6LoopbackIsTreatedAsLoopbackAndDenied() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, 127, 0, 0, 1};

        StunResponse answer = client.request(StunMethod.CREATE_PERMISSION, w -> {
            // XOR-PEER-ADDRESS written by hand: the codec's TransportAddress would normalise it to IPv4.
            byte[] value = new byte[20];
            value[1] = 0x02;
            int xPort = 5000 ^ (StunHeaderFlyweight.MAGIC_COOKIE >>> 16);
            value[2] = (byte) (xPort >>> 8);
            value[3] = (byte) xPort;
            for (int i = 0; i < 16; i++) {
                value[4 + i] = (byte) (mapped[i]
                        ^ w.buffer().getByte(w.offset() + StunHeaderFlyweight.MAGIC_COOKIE_FIELD_OFFSET + i));
            }
            w.putBytes(AttributeType.XOR_PEER_ADDRESS, value);
        });

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.FORBIDDEN);
    }

    @Test
    void morePermissionsThanTheLimitIs508() {
        TurnFixture fx = TurnFixture.builder().config(c -> c.maxPermissions(2)).build();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

        assertThat(client.createPermission(PEER, PEER_2, PEER_3).errorCode())
                .isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
        assertThat(client.createPermission(PEER, PEER_2).isSuccess()).isTrue();
        assertThat(client.createPermission(PEER_3).errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
        assertThat(client.createPermission(PEER).isSuccess())
                .as("refreshing an existing one is fine")
                .isTrue();
        assertThat(peerDataReaches(fx, client, PEER_3)).isFalse();
    }

    @Test
    void permissionExpiresAfterFiveMinutes() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        client.createPermission(PEER);

        fx.advanceSeconds(299);
        assertThat(peerDataReaches(fx, client, PEER)).isTrue();
        fx.advanceSeconds(2);

        long dropsBefore = fx.counters().drops(DropReason.NO_PERMISSION);
        assertThat(peerDataReaches(fx, client, PEER)).isFalse();
        assertThat(fx.counters().drops(DropReason.NO_PERMISSION)).isEqualTo(dropsBefore + 1);
        client.sendIndication(PEER, new byte[] {1});
        assertThat(fx.transport.takePeer()).as("Send to an expired permission").isEmpty();
    }

    @Test
    void refreshingAPermissionBeforeItExpiresKeepsIt() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        client.createPermission(PEER);

        fx.advanceSeconds(200);
        assertThat(client.createPermission(PEER).isSuccess()).isTrue();
        fx.advanceSeconds(250);

        assertThat(peerDataReaches(fx, client, PEER)).isTrue();
        fx.advanceSeconds(51);
        assertThat(peerDataReaches(fx, client, PEER)).isFalse();
    }

    @Test
    void ipv6PermissionsWorkOnAnIpv6Allocation() {
        TurnFixture fx = TurnFixture.builder().ipv6Relay().build();
        TurnTestClient client = fx.alice("2001:db8:42::7", 40001);
        assertThat(client.allocate(w -> w.putInt(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x02 << 24))
                        .isSuccess())
                .isTrue();
        TransportAddress peer = TransportAddress.parse("2001:db8:1::5", 5000);

        assertThat(client.createPermission(peer).isSuccess()).isTrue();

        assertThat(peerDataReaches(fx, client, TransportAddress.parse("2001:db8:1::5", 7777)))
                .isTrue();
        assertThat(peerDataReaches(fx, client, TransportAddress.parse("2001:db8:1::6", 5000)))
                .isFalse();
        assertThat(client.createPermission(TransportAddress.parse("fe80::1", 5000))
                        .errorCode())
                .isEqualTo(ErrorCode.FORBIDDEN);
        assertThat(client.createPermission(PEER).errorCode()).isEqualTo(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
    }
}
