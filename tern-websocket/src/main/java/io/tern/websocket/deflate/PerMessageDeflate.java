package io.tern.websocket.deflate;

import io.tern.websocket.handshake.ExtensionOffer;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * RFC 7692 §7 negotiation. java.util.zip cannot lower the LZ77 window of a {@link java.util.zip.Deflater},
 * so a peer's demand for a window below 15 bits is honoured by compressing Huffman-only: with no
 * back-references at all, no reference can reach beyond any window. Inflating always uses the
 * 15-bit window, which reads streams made with any smaller one.
 */
public final class PerMessageDeflate {
    public static final String EXTENSION = "permessage-deflate";
    private static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";
    private static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";
    private static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";
    private static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";

    private PerMessageDeflate() {}

    /** A server's acceptance: the negotiated parameters and the extension element for the response. */
    public record Accepted(DeflateParameters parameters, String responseElement) {}

    /**
     * Server side (§5.1, §7.1): accepts the first permessage-deflate offer whose parameters are all
     * known, unrepeated and well-formed; offers that break those rules are declined (§7.1: "a server
     * MUST decline an extension negotiation offer" with such parameters).
     *
     * @return null when no offer is acceptable, and the connection then runs uncompressed
     */
    public static Accepted accept(List<ExtensionOffer> offers, PerMessageDeflateConfig config) {
        for (ExtensionOffer offer : offers) {
            if (!offer.name().equalsIgnoreCase(EXTENSION)) {
                continue;
            }
            Accepted accepted = acceptOne(offer, config);
            if (accepted != null) {
                return accepted;
            }
        }
        return null;
    }

    private static Accepted acceptOne(ExtensionOffer offer, PerMessageDeflateConfig config) {
        ElementParameters offered = ElementParameters.parse(offer);
        if (offered == null) {
            return null;
        }
        // Any client window is fine: we inflate with the full 15-bit window, so we never answer client_max_window_bits.
        boolean serverNoContext = config.forceServerNoContextTakeover() || offered.serverNoContextTakeover();
        boolean clientNoContext = config.forceClientNoContextTakeover() || offered.clientNoContextTakeover();
        int serverWindowBits = offered.serverMaxWindowBits();
        StringBuilder response = new StringBuilder(EXTENSION);
        if (serverNoContext) {
            response.append("; ").append(SERVER_NO_CONTEXT_TAKEOVER);
        }
        if (clientNoContext) {
            response.append("; ").append(CLIENT_NO_CONTEXT_TAKEOVER);
        }
        if (serverWindowBits != ElementParameters.ABSENT) {
            response.append("; ").append(SERVER_MAX_WINDOW_BITS).append('=').append(serverWindowBits);
        }
        DeflateParameters parameters = new DeflateParameters(
                serverNoContext, clientNoContext, orMaxWindowBits(serverWindowBits), DeflateParameters.MAX_WINDOW_BITS);
        return new Accepted(parameters, response.toString());
    }

    /** Client side: the offer element to send. */
    public static String offer(PerMessageDeflateConfig config) {
        StringBuilder sb = new StringBuilder(EXTENSION).append("; ").append(CLIENT_MAX_WINDOW_BITS);
        if (config.requestServerNoContextTakeover()) {
            sb.append("; ").append(SERVER_NO_CONTEXT_TAKEOVER);
        }
        if (config.offerClientNoContextTakeover()) {
            sb.append("; ").append(CLIENT_NO_CONTEXT_TAKEOVER);
        }
        if (config.requestServerMaxWindowBits() > 0) {
            sb.append("; ").append(SERVER_MAX_WINDOW_BITS).append('=').append(config.requestServerMaxWindowBits());
        }
        return sb.toString();
    }

    /**
     * Client side (§7.1.x): validates the server's answer to {@link #offer}.
     *
     * @return the negotiated parameters, or null when the answer is not one the offer allowed
     */
    public static DeflateParameters acceptResponse(ExtensionOffer response, PerMessageDeflateConfig config) {
        if (!response.name().equalsIgnoreCase(EXTENSION)) {
            return null;
        }
        ElementParameters answer = ElementParameters.parse(response);
        // §7.1.2.2: in a response, client_max_window_bits must carry a value.
        if (answer == null || answer.clientMaxWindowBits() == ElementParameters.WITHOUT_VALUE) {
            return null;
        }
        int requested = config.requestServerMaxWindowBits();
        if (requested > 0 && answer.serverMaxWindowBits() > requested) {
            return null;
        }
        // §7.1.1.2: having offered client_no_context_takeover, we keep that promise even if it is not echoed.
        boolean clientNoContext = config.offerClientNoContextTakeover() || answer.clientNoContextTakeover();
        return new DeflateParameters(
                answer.serverNoContextTakeover(),
                clientNoContext,
                orMaxWindowBits(answer.serverMaxWindowBits()),
                orMaxWindowBits(answer.clientMaxWindowBits()));
    }

    private static int orMaxWindowBits(int windowBits) {
        return windowBits > 0 ? windowBits : DeflateParameters.MAX_WINDOW_BITS;
    }

    /**
     * The parameters of one permessage-deflate element, checked by the rules offers and responses
     * share (§7): every parameter known and unrepeated, the no_context_takeover ones without a
     * value, window bits in 8..15.
     */
    private record ElementParameters(
            boolean serverNoContextTakeover,
            boolean clientNoContextTakeover,
            int serverMaxWindowBits,
            int clientMaxWindowBits) {
        /** A max_window_bits parameter that is not there. */
        static final int ABSENT = 0;
        /** client_max_window_bits named without a value (allowed in an offer, §7.1.2.2). */
        static final int WITHOUT_VALUE = -1;

        /** The element's parameters, or null when one breaks the shared rules. */
        static ElementParameters parse(ExtensionOffer element) {
            boolean serverNoContext = false;
            boolean clientNoContext = false;
            int serverWindowBits = ABSENT;
            int clientWindowBits = ABSENT;
            Set<String> seen = new HashSet<>();
            for (ExtensionOffer.Parameter p : element.parameters()) {
                String name = p.name().toLowerCase(Locale.ROOT);
                if (!seen.add(name)) {
                    return null;
                }
                switch (name) {
                    case SERVER_NO_CONTEXT_TAKEOVER -> {
                        if (p.value() != null) {
                            return null;
                        }
                        serverNoContext = true;
                    }
                    case CLIENT_NO_CONTEXT_TAKEOVER -> {
                        if (p.value() != null) {
                            return null;
                        }
                        clientNoContext = true;
                    }
                    case SERVER_MAX_WINDOW_BITS -> {
                        serverWindowBits = parseWindowBits(p.value());
                        if (serverWindowBits < 0) {
                            return null;
                        }
                    }
                    case CLIENT_MAX_WINDOW_BITS -> {
                        if (p.value() == null) {
                            clientWindowBits = WITHOUT_VALUE;
                        } else {
                            clientWindowBits = parseWindowBits(p.value());
                            if (clientWindowBits < 0) {
                                return null;
                            }
                        }
                    }
                    default -> {
                        return null;
                    }
                }
            }
            return new ElementParameters(serverNoContext, clientNoContext, serverWindowBits, clientWindowBits);
        }
    }

    /** §7.1.2: 1*DIGIT in 8..15 without leading zeros; -1 otherwise. */
    static int parseWindowBits(String value) {
        if (value == null || value.isEmpty() || value.length() > 2 || value.charAt(0) == '0') {
            return -1;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return -1;
            }
        }
        int bits = Integer.parseInt(value);
        return bits >= DeflateParameters.MIN_WINDOW_BITS && bits <= DeflateParameters.MAX_WINDOW_BITS ? bits : -1;
    }
}
