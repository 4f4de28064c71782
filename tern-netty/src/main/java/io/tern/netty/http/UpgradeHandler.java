package io.tern.netty.http;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Takes over an HTTP/1.1 connection whose request asks, with {@code Upgrade} and
 * {@code Connection: upgrade}, for the protocol of an upgrade route (WebSocket at {@code /nostr}).
 * This is the seam for the WebSocket adapter: the server parses and bounds the request, applies
 * its connection limits, and then steps aside.
 *
 * <p>Both methods run on the connection's event loop and must not block.
 */
public interface UpgradeHandler {
    /**
     * First look, while the connection is still HTTP: null accepts; a status refuses, and the server
     * answers it as an ordinary response (400 for a bad handshake, 403, 429...), keeping the connection
     * for more HTTP requests.
     */
    default HttpResponseStatus check(HttpRequest request) {
        return null;
    }

    /**
     * The connection is yours. The server has removed every HTTP handler and timeout of its own from
     * the pipeline (TLS stays, and so does the connection's place in the connection limits until it
     * closes). Install your handlers and write your answer (the {@code 101 Switching Protocols}) as raw
     * bytes; {@link UpgradeRequest#leftover()} holds whatever the client sent after the request.
     */
    void takeOver(UpgradeRequest upgrade);
}
