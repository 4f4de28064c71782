package io.tern.websocket.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.frame.GrowableBytes;
import io.tern.websocket.handshake.ExtensionOffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PerMessageDeflateNegotiationTest {
    private static final CodecPool POOL = new CodecPool(6, 4);
    private static final PerMessageDeflateConfig HONOUR = PerMessageDeflateConfig.honourOffers(POOL);

    private static String answer(String offers, PerMessageDeflateConfig config) {
        PerMessageDeflate.Accepted accepted = PerMessageDeflate.accept(ExtensionOffer.parseAll(offers), config);
        return accepted == null ? null : accepted.responseElement();
    }

    @Test
    void acceptsThePlainOffer() {
        assertThat(answer("permessage-deflate", HONOUR)).isEqualTo("permessage-deflate");
    }

    @Test
    void neverAnswersClientMaxWindowBitsBecauseWeInflateWithTheFullWindow() {
        assertThat(answer("permessage-deflate; client_max_window_bits=10", HONOUR))
                .isEqualTo("permessage-deflate");
    }

    @Test
    void echoesNoContextTakeoverRequests() {
        assertThat(answer("permessage-deflate; client_no_context_takeover; server_no_context_takeover", HONOUR))
                .isEqualTo("permessage-deflate; server_no_context_takeover; client_no_context_takeover");
    }

    @Test
    void honoursSmallServerWindowsAndAnswersThem() {
        PerMessageDeflate.Accepted accepted = PerMessageDeflate.accept(
                ExtensionOffer.parseAll("permessage-deflate; server_max_window_bits=9"), HONOUR);
        assertThat(accepted.responseElement()).isEqualTo("permessage-deflate; server_max_window_bits=9");
        assertThat(accepted.parameters().serverMaxWindowBits()).isEqualTo(9);
    }

    @Test
    void declinesMalformedOffersAndTakesTheFallback() {
        for (String bad : new String[] {
            "permessage-deflate; server_max_window_bits=7",
            "permessage-deflate; server_max_window_bits=16",
            "permessage-deflate; server_max_window_bits=09",
            "permessage-deflate; server_max_window_bits",
            "permessage-deflate; client_max_window_bits=x",
            "permessage-deflate; server_no_context_takeover=1",
            "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
            "permessage-deflate; unknown_parameter",
        }) {
            assertThat(answer(bad, HONOUR)).as(bad).isNull();
            assertThat(answer(bad + ", permessage-deflate; client_no_context_takeover", HONOUR))
                    .as(bad)
                    .isEqualTo("permessage-deflate; client_no_context_takeover");
        }
    }

    @Test
    void ignoresOtherExtensions() {
        assertThat(answer("x-webkit-deflate-frame, permessage-deflate", HONOUR)).isEqualTo("permessage-deflate");
        assertThat(answer("x-webkit-deflate-frame", HONOUR)).isNull();
    }

    @Test
    void quotedParameterValuesAreUnquoted() {
        assertThat(answer("permessage-deflate; server_max_window_bits=\"10\"", HONOUR))
                .isEqualTo("permessage-deflate; server_max_window_bits=10");
    }

    @Test
    void boundedMemoryModeImposesNoContextTakeoverOnBothSides() {
        assertThat(answer("permessage-deflate", PerMessageDeflateConfig.noContextTakeover(POOL)))
                .isEqualTo("permessage-deflate; server_no_context_takeover; client_no_context_takeover");
    }

    @Test
    void clientRejectsAnswersItDidNotAllow() {
        PerMessageDeflateConfig offer = HONOUR.withClientOffer(false, 10, false);
        assertThat(PerMessageDeflate.acceptResponse(
                        ExtensionOffer.parseAll("permessage-deflate; server_max_window_bits=12")
                                .get(0),
                        offer))
                .isNull();
        for (String bad : new String[] {
            "permessage-deflate; mystery",
            "permessage-deflate; client_max_window_bits",
            "permessage-deflate; client_max_window_bits=16",
            "permessage-deflate; server_max_window_bits",
            "permessage-deflate; client_no_context_takeover=1",
            "permessage-deflate; server_no_context_takeover; Server_No_Context_Takeover",
        }) {
            assertThat(PerMessageDeflate.acceptResponse(
                            ExtensionOffer.parseAll(bad).get(0), offer))
                    .as(bad)
                    .isNull();
        }
        DeflateParameters ok = PerMessageDeflate.acceptResponse(
                ExtensionOffer.parseAll("permessage-deflate; server_max_window_bits=10; client_max_window_bits=9")
                        .get(0),
                offer);
        assertThat(ok).isEqualTo(new DeflateParameters(false, false, 10, 9));
    }

    @Test
    void clientKeepsItsNoContextTakeoverPromiseEvenIfNotEchoed() {
        PerMessageDeflateConfig offer = HONOUR.withClientOffer(false, 0, true);
        assertThat(PerMessageDeflate.offer(offer))
                .isEqualTo("permessage-deflate; client_max_window_bits; client_no_context_takeover");
        DeflateParameters parameters = PerMessageDeflate.acceptResponse(
                ExtensionOffer.parseAll("permessage-deflate").get(0), offer);
        assertThat(parameters.clientNoContextTakeover()).isTrue();
    }

    @Test
    void smallWindowCompressionUsesNoBackReferences() {
        byte[] random = new byte[1000];
        new SplittableRandom(7).nextBytes(random);
        byte[] twice = new byte[2000];
        System.arraycopy(random, 0, twice, 0, 1000);
        System.arraycopy(random, 0, twice, 1000, 1000);
        GrowableBytes out = new GrowableBytes();
        new MessageDeflater(POOL, true, 15).compress(twice, 0, twice.length, out);
        assertThat(out.length())
                .as("a 15-bit window finds the repeat 1000 bytes back")
                .isLessThan(1100);
        new MessageDeflater(POOL, true, 9).compress(twice, 0, twice.length, out);
        assertThat(out.length())
                .as("a 9-bit window (512 bytes) must not reach it")
                .isGreaterThan(1900);
    }
}
