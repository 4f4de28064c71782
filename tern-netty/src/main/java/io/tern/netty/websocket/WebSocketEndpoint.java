package io.tern.netty.websocket;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerCodec;
import io.tern.websocket.engine.WebSocketConfig;

/**
 * A WebSocket service: its limits and the application's {@link WebSocketAcceptor}. It serves
 * connections two ways, with the same engine and listener either way:
 *
 * <ul>
 *   <li>on a port of its own, through {@link WebSocketServer}, where plain HTTP requests are
 *       answered by {@link WebSocketAcceptor#respond};
 *   <li>handed over by an HTTP server that decoded a request asking for an upgrade on one of its
 *       paths: {@link #upgrade}.
 * </ul>
 */
public final class WebSocketEndpoint {
    private static final int MAX_REQUEST_LINE_BYTES = 4096;
    /** Plain requests on the endpoint's port are small (NIP-11, preflights); larger bodies get 413. */
    private static final int MAX_REQUEST_BODY_BYTES = 8192;

    private final WebSocketConfig config;
    private final WebSocketAcceptor acceptor;

    public WebSocketEndpoint(WebSocketConfig config, WebSocketAcceptor acceptor) {
        this.config = config;
        this.acceptor = acceptor;
    }

    public WebSocketConfig config() {
        return config;
    }

    WebSocketAcceptor acceptor() {
        return acceptor;
    }

    /**
     * Takes over an HTTP/1.1 connection whose request asks for a WebSocket (call it from the HTTP
     * server's handler, on the channel's loop, with that handler's context). The acceptor decides
     * ({@code accept}, 404 on null), the engine checks the request (400 or 426 through the HTTP
     * encoder, then the connection closes); on success every Netty HTTP handler and the calling
     * handler leave the pipeline, other handlers (TLS) stay, and the connection is a WebSocket.
     * HTTP/2 connections cannot be upgraded (RFC 8441 is not implemented).
     */
    public void upgrade(ChannelHandlerContext ctx, HttpRequest request) {
        WebSocketHandler handler = new WebSocketHandler(WebSocketConnection.server(config), this);
        ctx.pipeline().addAfter(ctx.name(), null, handler);
        ChannelHandlerContext handlerContext = ctx.pipeline().context(handler);
        handler.upgrade(handlerContext, WebSocketHandler.request(ctx, request), ctx.handler());
    }

    /** The pipeline of a connection accepted on the endpoint's own port. */
    void initChannel(Channel channel) {
        channel.pipeline()
                .addLast(
                        new HttpServerCodec(MAX_REQUEST_LINE_BYTES, config.maxHandshakeBytes(), 8192),
                        new HttpObjectAggregator(MAX_REQUEST_BODY_BYTES),
                        new WebSocketHandler(WebSocketConnection.server(config), this));
    }
}
