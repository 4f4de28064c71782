package io.tern.websocket.handshake;

import io.tern.websocket.deflate.DeflateParameters;
import io.tern.websocket.deflate.PerMessageDeflate;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import java.util.List;

/** RFC 6455 §4.2.1 and §4.2.2: the server's checks of an opening request, and its 101 answer. */
public final class ServerHandshake {
    public static final int SWITCHING_PROTOCOLS = 101;
    public static final int BAD_REQUEST = 400;
    /** Answered with {@code Sec-WebSocket-Version: 13} (§4.4). */
    public static final int UPGRADE_REQUIRED = 426;

    private ServerHandshake() {}

    /**
     * What the server answers.
     *
     * @param status {@link #SWITCHING_PROTOCOLS} when accepted, else the refusal's HTTP status
     * @param reason why the request was refused, or "" when accepted
     * @param responseHead the complete 101 head (ending in the blank line) when accepted, else null
     * @param deflate the negotiated permessage-deflate parameters, or null for none
     * @param subprotocol the chosen subprotocol, or null
     */
    public record Outcome(
            int status, String reason, String responseHead, DeflateParameters deflate, String subprotocol) {
        public boolean accepted() {
            return status == SWITCHING_PROTOCOLS;
        }

        static Outcome refused(int status, String reason) {
            return new Outcome(status, reason, null, null, null);
        }
    }

    /** Whether the request asks for a WebSocket at all, as opposed to being plain HTTP. */
    public static boolean isUpgrade(HandshakeRequest request) {
        return request.fieldHasToken("upgrade", "websocket");
    }

    /**
     * @param deflate how to negotiate permessage-deflate, or null to decline it
     * @param subprotocols supported subprotocols, in preference order
     */
    public static Outcome accept(HandshakeRequest request, PerMessageDeflateConfig deflate, List<String> subprotocols) {
        if (!"GET".equals(request.method())
                || !"HTTP/1.1".equals(request.version())
                || request.target() == null
                || request.target().isEmpty()) {
            return Outcome.refused(BAD_REQUEST, "not a GET HTTP/1.1 request");
        }
        if (request.field("host") == null
                || !request.fieldHasToken("upgrade", "websocket")
                || !request.fieldHasToken("connection", "upgrade")) {
            return Outcome.refused(BAD_REQUEST, "not a WebSocket upgrade");
        }
        if (!Handshake.VERSION.equals(request.field("sec-websocket-version"))) {
            return Outcome.refused(UPGRADE_REQUIRED, "unsupported version");
        }
        String key = request.field("sec-websocket-key");
        if (!Handshake.isValidKey(key)) {
            return Outcome.refused(BAD_REQUEST, "bad Sec-WebSocket-Key");
        }
        StringBuilder response = new StringBuilder(256)
                .append("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n")
                .append("Sec-WebSocket-Accept: ")
                .append(Handshake.acceptKey(key))
                .append("\r\n");
        DeflateParameters negotiated = null;
        if (deflate != null) {
            List<ExtensionOffer> offers;
            try {
                offers = ExtensionOffer.parseAll(request.field("sec-websocket-extensions"));
            } catch (IllegalArgumentException malformed) {
                // A malformed offer is declined like any other we cannot honour.
                offers = List.of();
            }
            PerMessageDeflate.Accepted accepted = PerMessageDeflate.accept(offers, deflate);
            if (accepted != null) {
                response.append("Sec-WebSocket-Extensions: ")
                        .append(accepted.responseElement())
                        .append("\r\n");
                negotiated = accepted.parameters();
            }
        }
        String subprotocol = null;
        if (request.field("sec-websocket-protocol") != null) {
            for (String supported : subprotocols) {
                if (request.fieldHasToken("sec-websocket-protocol", supported)) {
                    subprotocol = supported;
                    response.append("Sec-WebSocket-Protocol: ")
                            .append(supported)
                            .append("\r\n");
                    break;
                }
            }
        }
        return new Outcome(SWITCHING_PROTOCOLS, "", response.append("\r\n").toString(), negotiated, subprotocol);
    }
}
