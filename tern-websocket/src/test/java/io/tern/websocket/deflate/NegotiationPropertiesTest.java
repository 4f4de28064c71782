package io.tern.websocket.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.handshake.ExtensionOffer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.statistics.Statistics;

/**
 * The {@code Sec-WebSocket-Extensions} parser and permessage-deflate negotiation on field values of
 * any shape: the parser answers with elements or IllegalArgumentException, negotiation with a
 * bounded answer or none, and whatever the server accepts, a client that offered it accepts back.
 */
class NegotiationPropertiesTest {
    private static final CodecPool POOL = new CodecPool(1, 4);
    private static final PerMessageDeflateConfig HONOUR = PerMessageDeflateConfig.honourOffers(POOL);

    @Provide
    Arbitrary<String> fieldValues() {
        Arbitrary<String> pieces = Arbitraries.of(
                "permessage-deflate",
                "x-webkit-deflate-frame",
                ";",
                ",",
                "=",
                " ",
                "\t",
                "\"",
                "\\",
                "server_no_context_takeover",
                "client_no_context_takeover",
                "server_max_window_bits",
                "client_max_window_bits",
                "8",
                "9",
                "10",
                "15",
                "16",
                "07",
                "\"12\"",
                "x",
                "\u00e9",
                "\r\n");
        Arbitrary<String> any = pieces.list().ofMaxSize(20).map(l -> String.join("", l));
        Arbitrary<String> parameters = Arbitraries.of(
                        "; server_no_context_takeover",
                        "; client_no_context_takeover",
                        "; server_max_window_bits=10",
                        "; client_max_window_bits",
                        "; client_max_window_bits=9",
                        ";",
                        " ")
                .list()
                .ofMaxSize(4)
                .map(l -> "permessage-deflate" + String.join("", l));
        return Arbitraries.oneOf(
                any, parameters, Combinators.combine(any, parameters).as((a, b) -> a + b));
    }

    @Property(tries = 3000)
    void grammarShapedFieldValues(@ForAll("fieldValues") String fieldValue) {
        Statistics.label("outcome").collect(checkBounded(fieldValue));
        Statistics.label("outcome").coverage(c -> {
            c.check("accepted").percentage(p -> p > 10);
            c.check("declined").percentage(p -> p > 5);
            c.check("unparsable").percentage(p -> p > 20);
        });
    }

    @Property(tries = 1000)
    void arbitraryFieldValues(@ForAll @StringLength(max = 120) String fieldValue) {
        checkBounded(fieldValue);
    }

    /** Checks the bounds and says how it went: unparsable, declined or accepted (by the server). */
    private static String checkBounded(String fieldValue) {
        List<ExtensionOffer> offers;
        try {
            offers = ExtensionOffer.parseAll(fieldValue);
        } catch (IllegalArgumentException e) {
            return "unparsable";
        }
        boolean anyAccepted = false;
        for (PerMessageDeflateConfig config :
                new PerMessageDeflateConfig[] {HONOUR, PerMessageDeflateConfig.noContextTakeover(POOL)}) {
            PerMessageDeflate.Accepted accepted = PerMessageDeflate.accept(offers, config);
            if (accepted != null) {
                anyAccepted = true;
                assertWindowsInRange(accepted.parameters());
                assertThat(ExtensionOffer.parseAll(accepted.responseElement()))
                        .singleElement()
                        .satisfies(e -> assertThat(e.name()).isEqualTo(PerMessageDeflate.EXTENSION));
            }
            for (ExtensionOffer offer : offers) {
                DeflateParameters parameters = PerMessageDeflate.acceptResponse(offer, config);
                if (parameters != null) {
                    assertWindowsInRange(parameters);
                }
            }
        }
        return anyAccepted ? "accepted" : "declined";
    }

    @Property(tries = 500)
    void whatTheServerAcceptsTheOfferingClientAccepts(
            @ForAll boolean serverNoContext,
            @ForAll @IntRange(min = 7, max = 15) int serverWindowBits,
            @ForAll boolean clientNoContext,
            @ForAll boolean forceServer,
            @ForAll boolean forceClient) {
        int requestedWindow = serverWindowBits < DeflateParameters.MIN_WINDOW_BITS ? 0 : serverWindowBits;
        PerMessageDeflateConfig client = HONOUR.withClientOffer(serverNoContext, requestedWindow, clientNoContext);
        PerMessageDeflateConfig server = new PerMessageDeflateConfig(POOL, forceServer, forceClient, false, 0, false);
        PerMessageDeflate.Accepted accepted =
                PerMessageDeflate.accept(ExtensionOffer.parseAll(PerMessageDeflate.offer(client)), server);
        assertThat(accepted).isNotNull();
        DeflateParameters atClient = PerMessageDeflate.acceptResponse(
                ExtensionOffer.parseAll(accepted.responseElement()).get(0), client);
        assertThat(atClient).isEqualTo(accepted.parameters());
        assertThat(atClient.serverNoContextTakeover()).isEqualTo(serverNoContext || forceServer);
        assertThat(atClient.clientNoContextTakeover()).isEqualTo(clientNoContext || forceClient);
        assertThat(atClient.serverMaxWindowBits())
                .isEqualTo(requestedWindow == 0 ? DeflateParameters.MAX_WINDOW_BITS : requestedWindow);
    }

    private static void assertWindowsInRange(DeflateParameters p) {
        assertThat(p.serverMaxWindowBits())
                .isBetween(DeflateParameters.MIN_WINDOW_BITS, DeflateParameters.MAX_WINDOW_BITS);
        assertThat(p.clientMaxWindowBits())
                .isBetween(DeflateParameters.MIN_WINDOW_BITS, DeflateParameters.MAX_WINDOW_BITS);
    }
}
