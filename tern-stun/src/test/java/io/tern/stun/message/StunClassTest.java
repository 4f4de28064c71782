package io.tern.stun.message;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StunClassTest {
    private static final int[] CLASSES = {
        StunClass.REQUEST, StunClass.INDICATION, StunClass.SUCCESS_RESPONSE, StunClass.ERROR_RESPONSE
    };

    @Test
    void everyMethodAndClassSurvivesInterleaving() {
        for (int method = 0; method <= 0xFFF; method++) {
            for (int messageClass : CLASSES) {
                int type = StunClass.messageType(method, messageClass);
                assertThat(type & 0xC000).as("top two bits of 0x%04x", type).isZero();
                assertThat(StunClass.methodOf(type)).isEqualTo(method);
                assertThat(StunClass.classOf(type)).isEqualTo(messageClass);
            }
        }
    }

    @Test
    void everyMessageTypeSplitsAndJoinsBack() {
        for (int type = 0; type <= 0x3FFF; type++) {
            assertThat(StunClass.messageType(StunClass.methodOf(type), StunClass.classOf(type)))
                    .isEqualTo(type);
        }
    }

    @Test
    void knownWireValues() {
        // RFC 8489 §5 and RFC 8656 §17.
        assertThat(StunClass.messageType(StunMethod.BINDING, StunClass.REQUEST)).isEqualTo(0x0001);
        assertThat(StunClass.messageType(StunMethod.BINDING, StunClass.INDICATION))
                .isEqualTo(0x0011);
        assertThat(StunClass.messageType(StunMethod.BINDING, StunClass.SUCCESS_RESPONSE))
                .isEqualTo(0x0101);
        assertThat(StunClass.messageType(StunMethod.BINDING, StunClass.ERROR_RESPONSE))
                .isEqualTo(0x0111);
        assertThat(StunClass.messageType(StunMethod.ALLOCATE, StunClass.REQUEST))
                .isEqualTo(0x0003);
        assertThat(StunClass.messageType(StunMethod.ALLOCATE, StunClass.ERROR_RESPONSE))
                .isEqualTo(0x0113);
        assertThat(StunClass.messageType(StunMethod.REFRESH, StunClass.SUCCESS_RESPONSE))
                .isEqualTo(0x0104);
        assertThat(StunClass.messageType(StunMethod.SEND, StunClass.INDICATION)).isEqualTo(0x0016);
        assertThat(StunClass.messageType(StunMethod.DATA, StunClass.INDICATION)).isEqualTo(0x0017);
        assertThat(StunClass.messageType(StunMethod.CREATE_PERMISSION, StunClass.REQUEST))
                .isEqualTo(0x0008);
        assertThat(StunClass.messageType(StunMethod.CHANNEL_BIND, StunClass.SUCCESS_RESPONSE))
                .isEqualTo(0x0109);
        // Highest method bits land in 0x3E00, the middle ones in 0x00E0.
        assertThat(StunClass.messageType(0xFFF, StunClass.REQUEST)).isEqualTo(0x3EEF);
        assertThat(StunClass.messageType(0x080, StunClass.REQUEST)).isEqualTo(0x0200);
        assertThat(StunClass.messageType(0x010, StunClass.REQUEST)).isEqualTo(0x0020);
    }

    @Test
    void methodNames() {
        assertThat(StunMethod.name(StunMethod.CREATE_PERMISSION)).isEqualTo("CreatePermission");
        assertThat(StunMethod.name(StunMethod.CHANNEL_BIND)).isEqualTo("ChannelBind");
        assertThat(StunMethod.name(0xabc)).isEqualTo("0xabc");
    }
}
