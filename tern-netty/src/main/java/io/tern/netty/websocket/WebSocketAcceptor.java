package io.tern.netty.websocket;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/** What an application plugs into a {@link WebSocketEndpoint}: who may connect, and what plain HTTP gets. */
@FunctionalInterface
public interface WebSocketAcceptor {
    /**
     * A request that asks for a WebSocket upgrade, before the handshake's own checks. Returns the
     * new connection's listener, or null to answer 404. The listener hears {@link
     * WebSocketListener#onOpen} only if the handshake then succeeds, so count connections there, not
     * here. To turn a connection away for a limit, close it from {@code onOpen} with 1008.
     */
    WebSocketListener accept(WebSocketRequest request);

    /**
     * A plain HTTP request (no upgrade) on a port the endpoint listens on itself, such as NIP-11's
     * {@code Accept: application/nostr+json} or a CORS preflight. The connection closes after the
     * answer. By default: 426 Upgrade Required.
     */
    default FullHttpResponse respond(WebSocketRequest request) {
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.UPGRADE_REQUIRED, Unpooled.EMPTY_BUFFER);
        response.headers().set(HttpHeaderNames.UPGRADE, "websocket");
        return response;
    }
}
