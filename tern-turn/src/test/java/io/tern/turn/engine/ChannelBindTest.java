package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ChannelBind (RFC 8656 §11) with the rebinding and cooldown rules of §12.2. */
class ChannelBindTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);
    private static final TransportAddress PEER_2 = TransportAddress.parse("203.0.113.6", 6000);
    private static final TransportAddress PEER_SAME_IP_OTHER_PORT = TransportAddress.parse("203.0.113.5", 5001);

    private final TurnFixture fx = TurnFixture.create();
    /** A long allocation, so that channel timers, not the allocation, decide. */
    private final TurnTestClient client = fx.alice("198.51.100.7", 40001);

    ChannelBindTest() {
        assertThat(client.allocate(w -> w.putInt(AttributeType.LIFETIME, 3600)).isSuccess())
                .isTrue();
    }

    private boolean channelDataReachesPeer(int channel) {
        fx.transport.takePeer();
        client.channelData(channel, new byte[] {7, 7});
        return !fx.transport.takePeer().isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {0x0000, 0x3FFF, 0x8000, 0xFFFF})
    void channelNumberOutsideTheRangeIs400(int number) {
        assertThat(client.channelBind(number, PEER).errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @ParameterizedTest
    @ValueSource(ints = {0x5000, 0x51B7, 0x7FFF})
    void rfc5766ChannelNumbersBindByDefaultAsCoturnsClientsUseThem(int number) {
        assertThat(client.channelBind(number, PEER).isSuccess()).isTrue();
        assertThat(channelDataReachesPeer(number)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0x5000, 0x7FFF})
    void strictModeRejectsChannelNumbersAboveRfc8656Range(int number) {
        TurnFixture strict =
                TurnFixture.builder().config(c -> c.strictChannelNumbers(true)).build();
        TurnTestClient strictClient = strict.alice("198.51.100.8", 40002);
        assertThat(strictClient.allocate().isSuccess()).isTrue();
        assertThat(strictClient.channelBind(number, PEER).errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(strictClient.channelBind(0x4FFF, PEER).isSuccess()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0x4000, 0x4FFF})
    void channelNumbersAtTheEdgesOfTheRangeBind(int number) {
        assertThat(client.channelBind(number, PEER).isSuccess()).isTrue();
        assertThat(channelDataReachesPeer(number)).isTrue();
    }

    @Test
    void missingChannelNumberIs400() {
        StunResponse answer =
                client.request(StunMethod.CHANNEL_BIND, w -> w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void missingPeerAddressIs400() {
        StunResponse answer =
                client.request(StunMethod.CHANNEL_BIND, w -> w.putInt(AttributeType.CHANNEL_NUMBER, 0x4000 << 16));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void deniedPeerIs403() {
        assertThat(client.channelBind(0x4000, TransportAddress.parse("127.0.0.1", 5000))
                        .errorCode())
                .isEqualTo(ErrorCode.FORBIDDEN);
        assertThat(client.channelBind(0x4000, TurnFixture.SERVER_LISTENER).errorCode())
                .as("the relay's own listener")
                .isEqualTo(ErrorCode.FORBIDDEN);
    }

    @Test
    void channelBindInstallsAPermission() {
        assertThat(client.channelBind(0x4000, PEER).isSuccess()).isTrue();

        fx.peerSends(client.relayId(), PEER_SAME_IP_OTHER_PORT, new byte[] {1});
        assertThat(client.received()).as("permission is per IP").hasSize(1);
        client.sendIndication(PEER_SAME_IP_OTHER_PORT, new byte[] {2});
        assertThat(fx.transport.takePeer()).hasSize(1);
    }

    @Test
    void rebindingTheSamePairRefreshesTheChannel() {
        assertThat(client.channelBind(0x4000, PEER).isSuccess()).isTrue();
        fx.advanceSeconds(500);

        assertThat(client.channelBind(0x4000, PEER).isSuccess()).isTrue();
        fx.advanceSeconds(200);

        assertThat(channelDataReachesPeer(0x4000))
                .as("alive past the first expiry")
                .isTrue();
        fx.advanceSeconds(401);
        assertThat(channelDataReachesPeer(0x4000)).isFalse();
    }

    @Test
    void numberAlreadyBoundToAnotherPeerIs400() {
        client.channelBind(0x4000, PEER);

        assertThat(client.channelBind(0x4000, PEER_2).errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(client.channelBind(0x4000, PEER_SAME_IP_OTHER_PORT).errorCode())
                .isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void peerAlreadyBoundToAnotherNumberIs400() {
        client.channelBind(0x4000, PEER);

        assertThat(client.channelBind(0x4001, PEER).errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(client.channelBind(0x4001, PEER_SAME_IP_OTHER_PORT).isSuccess())
                .as("a channel is per transport address")
                .isTrue();
    }

    @Test
    void expiredChannelDropsDataAndBlocksItsNumberAndPeerForFiveMinutes() {
        client.channelBind(0x4000, PEER);
        fx.advanceSeconds(601);

        long dropsBefore = fx.counters().drops(DropReason.NO_CHANNEL);
        assertThat(channelDataReachesPeer(0x4000)).isFalse();
        assertThat(fx.counters().drops(DropReason.NO_CHANNEL)).isEqualTo(dropsBefore + 1);

        assertThat(client.channelBind(0x4000, PEER_2).errorCode())
                .as("number in cooldown")
                .isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(client.channelBind(0x4001, PEER).errorCode())
                .as("peer in cooldown")
                .isEqualTo(ErrorCode.BAD_REQUEST);
        fx.advanceSeconds(290);
        assertThat(client.channelBind(0x4000, PEER_2).errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);

        fx.advanceSeconds(11);

        assertThat(client.channelBind(0x4000, PEER_2).isSuccess())
                .as("number free after the cooldown")
                .isTrue();
        assertThat(client.channelBind(0x4001, PEER).isSuccess())
                .as("peer free after the cooldown")
                .isTrue();
        assertThat(channelDataReachesPeer(0x4000)).isTrue();
    }

    @Test
    void expiredChannelCanBeRevivedWithTheSamePairDuringTheCooldown() {
        client.channelBind(0x4000, PEER);
        fx.advanceSeconds(700);
        assertThat(channelDataReachesPeer(0x4000)).isFalse();

        assertThat(client.channelBind(0x4000, PEER).isSuccess()).isTrue();

        assertThat(channelDataReachesPeer(0x4000)).isTrue();
        // Past the old cooldown's end (expiry + 300 s), within the revived permission's 300 s.
        fx.advanceSeconds(250);
        assertThat(channelDataReachesPeer(0x4000))
                .as("the revived channel is not removed by the old cooldown")
                .isTrue();
        fx.advanceSeconds(400);
        assertThat(channelDataReachesPeer(0x4000)).isFalse();
    }

    @Test
    void peerDataDuringTheCooldownArrivesAsDataIndicationNotChannelData() {
        client.channelBind(0x4000, PEER);
        fx.advanceSeconds(601);
        client.createPermission(PEER);
        client.received();

        fx.peerSends(client.relayId(), PEER, new byte[] {5});

        var messages = client.received();
        assertThat(messages).hasSize(1);
        StunResponse data = StunResponse.parse(messages.get(0).bytes());
        assertThat(data.method()).isEqualTo(StunMethod.DATA);
    }
}
