package io.tern.netty.websocket;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.tern.netty.http.UpgradeHandler;
import io.tern.netty.http.UpgradeRequest;
import io.tern.websocket.engine.WebSocketConfig;

/**
 * A WebSocket service: its limits and the application's {@link WebSocketAcceptor}. It serves
 * connections two ways, with the same engine and listener either way:
 *
 * <ul>
 *   <li>on a port of its own, through {@link WebSocketServer}, where plain HTTP requests are
 *       answered by {@link WebSocketAcceptor#respond};
 *   <li>handed over by Tern's HTTP server ({@code io.tern.netty.http}) on one of its paths: the
 *       endpoint is the route's {@link UpgradeHandler}, {@code routes.upgrade("/nostr",
 *       "websocket", "nostr", endpoint)}.
 * </ul>
 */
public final class WebSocketEndpoint implements UpgradeHandler {
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
     * Takes over a connection Tern's HTTP server hands over (every HTTP handler of its own already
     * gone, TLS kept). The acceptor decides ({@code accept}, 404 on null) and the engine checks the
     * request; a refusal (404, 400, 426) goes out through an HTTP encoder added for it, and the
     * connection closes. On success the encoder leaves again, the engine writes its 101, and the
     * bytes the client sent after the request are its first input. The HTTP server counts the
     * connection in its limits until it closes; HTTP/2 connections are never handed over (RFC 8441
     * is not implemented).
     */
    @Override
    public void takeOver(UpgradeRequest upgrade) {
        Channel channel = upgrade.channel();
        WebSocketHandler handler = new WebSocketHandler(WebSocketConnection.server(config), this);
        channel.pipeline().addLast(new HttpResponseEncoder(), handler);
        handler.takeOver(
                channel.pipeline().context(handler),
                new WebSocketRequest(upgrade.request(), upgrade.remote(), upgrade.secure()),
                upgrade.leftover());
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
