package io.tern.stun.attribute;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import java.util.function.Consumer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The TURN attribute codecs: each value written by its {@code write} reads back the same, an absent
 * attribute reads as absent, and any value bytes of any length give a value or a refusal, never an
 * exception.
 */
class TurnAttributesTest {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private final StunMessageWriter writer = new StunMessageWriter(new MessageIntegrity(2048), new Fingerprint(2048));
    private final StunMessageDecoder decoder = new StunMessageDecoder();

    private StunMessageDecoder message(Consumer<StunMessageWriter> attributes) {
        writer.start(buffer, 0, StunClass.messageType(StunMethod.ALLOCATE, StunClass.REQUEST), 1, 2);
        attributes.accept(writer);
        assertThat(decoder.decode(buffer, 0, writer.length())).isEqualTo(StunMessageDecoder.OK);
        return decoder;
    }

    @Test
    void absentAttributesReadAsAbsent() {
        StunMessageDecoder m = message(w -> {});
        assertThat(RequestedTransport.read(m)).isEqualTo(RequestedTransport.ABSENT);
        assertThat(Lifetime.readSeconds(m)).isEqualTo(Lifetime.ABSENT);
        assertThat(ChannelNumber.read(m)).isEqualTo(ChannelNumber.MALFORMED);
        assertThat(AddressFamily.read(m, AttributeType.REQUESTED_ADDRESS_FAMILY))
                .isEqualTo(AddressFamily.ABSENT);
        assertThat(EvenPort.read(m)).isEqualTo(EvenPort.ABSENT);
        assertThat(ReservationToken.isPresent(m)).isFalse();
        assertThat(ConnectionId.read(m)).isEqualTo(ConnectionId.ABSENT);
        assertThat(PasswordAlgorithms.chosen(m)).isEqualTo(PasswordAlgorithms.MD5);
    }

    @Test
    void writtenValuesReadBack() {
        StunMessageDecoder m = message(w -> {
            RequestedTransport.write(w, RequestedTransport.TCP);
            Lifetime.write(w, 0xFFFF_FFF0L);
            ChannelNumber.write(w, 0x4ABC);
            AddressFamily.write(w, AttributeType.ADDITIONAL_ADDRESS_FAMILY, AddressAttribute.WIRE_FAMILY_IPV6);
            EvenPort.write(w, true);
            ReservationToken.write(w, 0x0102_0304_0506_0708L, new byte[8]);
            ConnectionId.write(w, 0xFEDC_BA98L);
        });
        assertThat(RequestedTransport.read(m)).isEqualTo(RequestedTransport.TCP);
        assertThat(Lifetime.readSeconds(m)).isEqualTo(0xFFFF_FFF0L);
        assertThat(ChannelNumber.read(m)).isEqualTo(0x4ABC);
        assertThat(AddressFamily.read(m, AttributeType.ADDITIONAL_ADDRESS_FAMILY))
                .isEqualTo(AddressAttribute.WIRE_FAMILY_IPV6);
        assertThat(EvenPort.read(m)).isEqualTo(EvenPort.EVEN_RESERVE_NEXT);
        assertThat(ReservationToken.isWellFormed(m)).isTrue();
        assertThat(ReservationToken.read(m)).isEqualTo(0x0102_0304_0506_0708L);
        assertThat(ConnectionId.read(m)).isEqualTo(0xFEDC_BA98L);
    }

    @Test
    void addressErrorCodeCarriesFamilyCodeAndReason() {
        StunMessageDecoder m = message(w -> AddressErrorCode.write(
                w,
                AddressAttribute.WIRE_FAMILY_IPV6,
                ErrorCode.INSUFFICIENT_CAPACITY,
                new byte[AddressErrorCode.maxValueBytes()]));
        int at = m.valueOffset(AttributeType.ADDRESS_ERROR_CODE);
        byte[] reason = ErrorCode.reason(ErrorCode.INSUFFICIENT_CAPACITY);
        assertThat(m.valueLength(AttributeType.ADDRESS_ERROR_CODE)).isEqualTo(4 + reason.length);
        assertThat(m.buffer().getByte(at)).isEqualTo((byte) AddressAttribute.WIRE_FAMILY_IPV6);
        assertThat(m.buffer().getByte(at + 2)).isEqualTo((byte) 5);
        assertThat(m.buffer().getByte(at + 3)).isEqualTo((byte) 8);
    }

    @Test
    void passwordAlgorithmMustEchoTheOffer() {
        byte[] sha256 = {0, (byte) PasswordAlgorithms.SHA256, 0, 0};
        StunMessageDecoder echoed = message(w -> {
            w.putBytes(AttributeType.PASSWORD_ALGORITHM, sha256);
            w.putBytes(AttributeType.PASSWORD_ALGORITHMS, PasswordAlgorithms.offer());
        });
        assertThat(PasswordAlgorithms.chosen(echoed)).isEqualTo(PasswordAlgorithms.SHA256);
        byte[] downgraded = {0, (byte) PasswordAlgorithms.MD5, 0, 0};
        StunMessageDecoder stripped = message(w -> {
            w.putBytes(AttributeType.PASSWORD_ALGORITHM, sha256);
            w.putBytes(AttributeType.PASSWORD_ALGORITHMS, downgraded);
        });
        assertThat(PasswordAlgorithms.chosen(stripped)).isEqualTo(PasswordAlgorithms.INVALID);
    }

    @Property(tries = 2000)
    void anyValueReadsAsAValueOrARefusal(
            @ForAll @IntRange(min = 0, max = 8) int which, @ForAll @Size(max = 12) byte[] value) {
        int[] types = {
            AttributeType.REQUESTED_TRANSPORT,
            AttributeType.LIFETIME,
            AttributeType.CHANNEL_NUMBER,
            AttributeType.REQUESTED_ADDRESS_FAMILY,
            AttributeType.EVEN_PORT,
            AttributeType.RESERVATION_TOKEN,
            AttributeType.CONNECTION_ID,
            AttributeType.PASSWORD_ALGORITHM,
            AttributeType.PASSWORD_ALGORITHMS
        };
        StunMessageDecoder m = message(w -> w.putBytes(types[which], value));
        boolean fourBytes = value.length == 4;
        assertThat(RequestedTransport.read(m) >= 0).isEqualTo(which == 0 && fourBytes);
        assertThat(Lifetime.readSeconds(m) >= 0).isEqualTo(which == 1 && fourBytes);
        assertThat(ChannelNumber.read(m) >= 0).isEqualTo(which == 2 && fourBytes);
        assertThat(AddressFamily.read(m, AttributeType.REQUESTED_ADDRESS_FAMILY) >= 0)
                .isEqualTo(which == 3 && fourBytes);
        assertThat(EvenPort.read(m) >= 0).isEqualTo(which == 4 && value.length == 1);
        assertThat(ReservationToken.isPresent(m) && ReservationToken.isWellFormed(m))
                .isEqualTo(which == 5 && value.length == 8);
        assertThat(ConnectionId.read(m) >= 0).isEqualTo(which == 6 && fourBytes);
        int algorithm = PasswordAlgorithms.chosen(m);
        assertThat(algorithm == PasswordAlgorithms.MD5 && which < 7 || algorithm == PasswordAlgorithms.INVALID)
                .isTrue();
    }
}
