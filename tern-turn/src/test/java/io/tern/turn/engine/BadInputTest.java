package io.tern.turn.engine;

import static io.tern.turn.testing.TurnTestClient.udpTransport;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Malformed input is dropped or answered with 400, never thrown, and the engine keeps serving. */
class BadInputTest {
    private final TurnFixture fx = TurnFixture.create();
    private final TurnTestClient client = fx.alice("198.51.100.7", 40001);

    private void assertStillServes() {
        StunResponse answer = client.exchange(client.unsignedRequest(StunMethod.BINDING, w -> {}));
        assertThat(answer).isNotNull();
        assertThat(answer.isSuccess()).isTrue();
    }

    @Test
    void truncatedMessageIsDropped() {
        byte[] request =
                client.unsignedRequest(StunMethod.BINDING, w -> w.putBytes(AttributeType.SOFTWARE, new byte[8]));
        for (int length = 0; length < request.length; length++) {
            assertThat(client.deliver(Arrays.copyOf(request, length)))
                    .as("length " + length)
                    .isEmpty();
        }
        assertThat(fx.counters().drops(DropReason.NOT_STUN)).isPositive();
        assertStillServes();
    }

    @Test
    void datagramLongerThanTheHeaderSaysIsDropped() {
        byte[] request = client.unsignedRequest(StunMethod.BINDING, w -> {});

        assertThat(client.deliver(Arrays.copyOf(request, request.length + 4))).isEmpty();
        assertThat(client.deliver(Arrays.copyOf(request, 70_000)))
                .as("oversized")
                .isEmpty();
        assertThat(fx.counters().drops(DropReason.NOT_STUN)).isEqualTo(2);
        assertStillServes();
    }

    @Test
    void lengthFieldLargerThanTheDatagramIsDropped() {
        byte[] request = client.unsignedRequest(StunMethod.BINDING, w -> {});
        new UnsafeBuffer(request).putShort(2, (short) 400, ByteOrder.BIG_ENDIAN);

        assertThat(client.deliver(request)).isEmpty();
        assertStillServes();
    }

    @Test
    void badFingerprintIsDroppedAndCounted() {
        client.challenge();
        byte[] request = client.signedRequest(StunMethod.ALLOCATE, udpTransport());
        request[request.length - 1] ^= 1;

        assertThat(client.deliver(request)).isEmpty();

        assertThat(fx.counters().drops(DropReason.BAD_FINGERPRINT)).isEqualTo(1);
        assertThat(fx.engine.allocationCount()).isZero();
        assertStillServes();
    }

    @Test
    void attributeOverrunningTheMessageIs400() {
        byte[] request =
                client.unsignedRequest(StunMethod.ALLOCATE, w -> w.putBytes(AttributeType.SOFTWARE, new byte[8]));
        int softwareLengthOffset = 20 + 2;
        new UnsafeBuffer(request).putShort(softwareLengthOffset, (short) 200, ByteOrder.BIG_ENDIAN);

        StunResponse answer = client.exchange(request);

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(fx.counters().drops(DropReason.MALFORMED)).isEqualTo(1);
        assertStillServes();
    }

    @Test
    void attributeAfterFingerprintIs400() {
        client.fingerprint = false;
        byte[] request = client.unsignedRequest(
                StunMethod.BINDING, w -> w.putFingerprint().putBytes(AttributeType.SOFTWARE, new byte[4]));

        assertThat(client.exchange(request).errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void malformedIndicationOrResponseGetsNoAnswer() {
        byte[] indication = client.indication(StunMethod.SEND, w -> w.putBytes(AttributeType.DATA, new byte[8]));
        new UnsafeBuffer(indication).putShort(22, (short) 200, ByteOrder.BIG_ENDIAN);

        assertThat(client.deliver(indication)).isEmpty();
    }

    @Test
    void responsesAndOtherIndicationsFromClientsAreIgnored() {
        byte[] response = client.unsignedRequest(StunMethod.BINDING, w -> {});
        new UnsafeBuffer(response)
                .putShort(
                        0,
                        (short) StunClass.messageType(StunMethod.BINDING, StunClass.SUCCESS_RESPONSE),
                        ByteOrder.BIG_ENDIAN);
        client.fingerprint = false;
        byte[] dataIndication = client.indication(StunMethod.DATA, w -> {});
        byte[] unfingerprintedResponse = response.clone();

        assertThat(client.deliver(unfingerprintedResponse)).isEmpty();
        assertThat(client.deliver(dataIndication)).isEmpty();
        assertThat(fx.counters().drops(DropReason.UNEXPECTED_MESSAGE)
                        + fx.counters().drops(DropReason.BAD_FINGERPRINT))
                .isEqualTo(2);
    }

    @Test
    void unknownMethodIs400() {
        StunResponse answer = client.exchange(client.unsignedRequest(0x0ABC, w -> {}));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void randomBytesNeverThrowAndTheEngineKeepsServing() {
        SplittableRandom random = new SplittableRandom(7);
        client.allocated().channelBind(0x4000, io.tern.stun.address.TransportAddress.parse("203.0.113.5", 5000));
        for (int i = 0; i < 5000; i++) {
            byte[] junk = new byte[random.nextInt(200)];
            random.nextBytes(junk);
            if (junk.length >= 8 && random.nextBoolean()) {
                // Make some of it look like STUN, to get past the first checks.
                new UnsafeBuffer(junk).putInt(4, 0x2112A442, ByteOrder.BIG_ENDIAN);
                junk[0] &= 0x3F;
                new UnsafeBuffer(junk).putShort(2, (short) ((junk.length - 20) & ~3), ByteOrder.BIG_ENDIAN);
            }
            client.deliver(junk);
            fx.peerSends(client.relayId(), io.tern.stun.address.TransportAddress.parse("203.0.113.5", 5000), junk);
        }
        assertStillServes();
        assertThat(client.refresh().isSuccess()).isTrue();
    }
}
