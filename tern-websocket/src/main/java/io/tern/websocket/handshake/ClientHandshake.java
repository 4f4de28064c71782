package io.tern.websocket.handshake;

import io.tern.websocket.deflate.DeflateParameters;
import io.tern.websocket.deflate.PerMessageDeflate;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import java.util.List;

/** RFC 6455 §4.1: the client's opening request, and its checks of the server's answer. */
public final class ClientHandshake {
    private ClientHandshake() {}

    /**
     * The answer's verdict.
     *
     * @param failure why the answer is unacceptable, or null when the connection is open
     * @param deflate the negotiated permessage-deflate parameters, or null for none
     * @param subprotocol the server's subprotocol, or null
     */
    public record Outcome(String failure, DeflateParameters deflate, String subprotocol) {
        static Outcome failed(String failure) {
            return new Outcome(failure, null, null);
        }
    }

    /** The request head, ending in the blank line. */
    public static String request(
            String host, String target, String key, PerMessageDeflateConfig deflate, List<String> subprotocols) {
        StringBuilder request = new StringBuilder(256)
                .append("GET ")
                .append(target)
                .append(" HTTP/1.1\r\n")
                .append("Host: ")
                .append(host)
                .append("\r\n")
                .append("Upgrade: websocket\r\nConnection: Upgrade\r\n")
                .append("Sec-WebSocket-Key: ")
                .append(key)
                .append("\r\n")
                .append("Sec-WebSocket-Version: ")
                .append(Handshake.VERSION)
                .append("\r\n");
        if (deflate != null) {
            request.append("Sec-WebSocket-Extensions: ")
                    .append(PerMessageDeflate.offer(deflate))
                    .append("\r\n");
        }
        if (!subprotocols.isEmpty()) {
            request.append("Sec-WebSocket-Protocol: ")
                    .append(String.join(", ", subprotocols))
                    .append("\r\n");
        }
        return request.append("\r\n").toString();
    }

    public static Outcome check(
            HttpHead response, String key, PerMessageDeflateConfig deflate, List<String> subprotocols) {
        String[] statusLine = response.startLine().split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].equals("HTTP/1.1") || !statusLine[1].equals("101")) {
            return Outcome.failed("server did not switch protocols: " + response.startLine());
        }
        if (!response.fieldHasToken("upgrade", "websocket") || !response.fieldHasToken("connection", "upgrade")) {
            return Outcome.failed("missing Upgrade/Connection");
        }
        if (!Handshake.acceptKey(key).equals(response.field("sec-websocket-accept"))) {
            return Outcome.failed("wrong Sec-WebSocket-Accept");
        }
        DeflateParameters negotiated = null;
        String extensions = response.field("sec-websocket-extensions");
        if (extensions != null) {
            List<ExtensionOffer> answered;
            try {
                answered = ExtensionOffer.parseAll(extensions);
            } catch (IllegalArgumentException malformed) {
                return Outcome.failed("malformed Sec-WebSocket-Extensions");
            }
            if (answered.size() > 1 || deflate == null) {
                return Outcome.failed("extension not offered");
            }
            if (answered.size() == 1) {
                negotiated = PerMessageDeflate.acceptResponse(answered.get(0), deflate);
                if (negotiated == null) {
                    return Outcome.failed("unacceptable permessage-deflate response");
                }
            }
        }
        String subprotocol = response.field("sec-websocket-protocol");
        if (subprotocol != null && !subprotocols.contains(subprotocol)) {
            return Outcome.failed("subprotocol not offered");
        }
        return new Outcome(null, negotiated, subprotocol);
    }
}
