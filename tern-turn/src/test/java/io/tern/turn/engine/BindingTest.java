package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import org.junit.jupiter.api.Test;

/** RFC 8489 §6.3: a Binding request needs no credentials and reflects the client's address. */
class BindingTest {
    private final TurnFixture fx = TurnFixture.create();

    @Test
    void bindingOverIpv4ReflectsTheClientAddress() {
        TurnTestClient client = fx.client("198.51.100.7", 40001);
        byte[] request = client.unsignedRequest(StunMethod.BINDING, w -> {});

        StunResponse answer = client.exchange(request);

        assertThat(answer.messageType())
                .isEqualTo(StunClass.messageType(StunMethod.BINDING, StunClass.SUCCESS_RESPONSE));
        assertThat(answer.xorAddress(AttributeType.XOR_MAPPED_ADDRESS)).isEqualTo(client.address);
        assertThat(answer.transactionIdLow())
                .isEqualTo(StunResponse.parse(request).transactionIdLow());
        assertThat(answer.transactionIdHigh())
                .isEqualTo(StunResponse.parse(request).transactionIdHigh());
    }

    @Test
    void bindingOverIpv6ReflectsTheClientAddress() {
        TurnTestClient client = fx.client("2001:db8:42::7", 40002);

        StunResponse answer = client.exchange(client.unsignedRequest(StunMethod.BINDING, w -> {}));

        assertThat(answer.isSuccess()).isTrue();
        TransportAddress mapped = answer.xorAddress(AttributeType.XOR_MAPPED_ADDRESS);
        assertThat(mapped.isIpv4()).isFalse();
        assertThat(mapped).isEqualTo(client.address);
    }

    @Test
    void bindingAnswerCarriesFingerprintOnlyWhenTheRequestDid() {
        TurnTestClient client = fx.client("198.51.100.7", 40001);
        client.fingerprint = false;
        assertThat(client.exchange(client.unsignedRequest(StunMethod.BINDING, w -> {}))
                        .has(AttributeType.FINGERPRINT))
                .isFalse();
        client.fingerprint = true;
        assertThat(client.exchange(client.unsignedRequest(StunMethod.BINDING, w -> {}))
                        .has(AttributeType.FINGERPRINT))
                .isTrue();
    }

    @Test
    void bindingWithUnknownComprehensionRequiredAttributeGets420() {
        TurnTestClient client = fx.client("198.51.100.7", 40001);

        StunResponse answer = client.exchange(client.unsignedRequest(
                StunMethod.BINDING, w -> w.putBytes(0x7F01, new byte[] {1, 2, 3, 4})));

        assertThat(answer.errorCode()).isEqualTo(ErrorCode.UNKNOWN_ATTRIBUTE);
        assertThat(answer.unknownAttributes()).containsExactly(0x7F01);
    }
}
