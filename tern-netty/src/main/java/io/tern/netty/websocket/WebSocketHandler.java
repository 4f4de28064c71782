package io.tern.netty.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.tern.websocket.engine.WebSocketEngine;
import io.tern.websocket.handshake.Handshake;
import io.tern.websocket.handshake.ServerHandshake;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pipeline end of one WebSocket connection. Before the upgrade (server side) it takes the HTTP
 * request the codec decoded: an upgrade is handed to the engine, a plain request to the acceptor.
 * After it, bytes go to the {@link WebSocketConnection}.
 */
final class WebSocketHandler extends ChannelInboundHandlerAdapter {
    private final WebSocketConnection connection;
    private final WebSocketEndpoint endpoint;
    /** Bytes the HTTP codec forwards while it is being removed, fed to the engine once it is open. */
    private ByteBuf held;

    private boolean upgrading;

    WebSocketHandler(WebSocketConnection connection, WebSocketEndpoint endpoint) {
        this.connection = connection;
        this.endpoint = endpoint;
    }

    WebSocketConnection connection() {
        return connection;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        connection.attach(ctx.channel());
        if (endpoint != null) {
            // Server: the opening handshake's clock runs from the connection's first moment.
            connection.start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (endpoint == null) {
            connection.start();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf bytes) {
            if (upgrading) {
                held = held == null ? bytes : Unpooled.wrappedBuffer(held, bytes);
            } else {
                connection.onInput(bytes);
            }
        } else if (msg instanceof HttpRequest request
                && endpoint != null
                && connection.state() == WebSocketEngine.State.CONNECTING) {
            try {
                onRequest(ctx, request);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        } else {
            // The rest of a request whose head we already took (the codec's last, empty content).
            ReferenceCountUtil.release(msg);
        }
    }

    private void onRequest(ChannelHandlerContext ctx, HttpRequest request) {
        DecoderResult decoded = request.decoderResult();
        if (decoded.isFailure()) {
            respondAndClose(ctx, status(statusFor(decoded.cause())));
            return;
        }
        WebSocketRequest webSocketRequest = request(ctx, request);
        if (!ServerHandshake.isUpgrade(webSocketRequest)) {
            respondAndClose(ctx, endpoint.acceptor().respond(webSocketRequest));
            return;
        }
        upgrade(ctx, webSocketRequest);
    }

    /** The HTTP server's hand-off: upgrades, then feeds the bytes the client sent after its request. */
    void takeOver(ChannelHandlerContext ctx, WebSocketRequest request, ByteBuf leftover) {
        upgrade(ctx, request);
        if (leftover.isReadable() && connection.state() != WebSocketEngine.State.CLOSED) {
            connection.onInput(leftover);
        } else {
            leftover.release();
        }
    }

    private static HttpResponseStatus statusFor(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return HttpResponseStatus.REQUEST_URI_TOO_LONG;
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        }
        return cause instanceof TooLongFrameException
                ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                : HttpResponseStatus.BAD_REQUEST;
    }

    private static WebSocketRequest request(ChannelHandlerContext ctx, HttpRequest request) {
        return new WebSocketRequest(
                request,
                ctx.channel().remoteAddress() instanceof InetSocketAddress remote ? remote : null,
                ctx.pipeline().get(SslHandler.class) != null);
    }

    /**
     * Accepts an upgrade: the acceptor names the listener, the engine checks the request; then the
     * HTTP handlers leave the pipeline and the engine's 101 goes out raw.
     */
    private void upgrade(ChannelHandlerContext ctx, WebSocketRequest request) {
        WebSocketListener listener = endpoint.acceptor().accept(request);
        if (listener == null) {
            respondAndClose(ctx, status(HttpResponseStatus.NOT_FOUND));
            return;
        }
        int status = connection.accept(request, listener);
        if (status != ServerHandshake.SWITCHING_PROTOCOLS) {
            FullHttpResponse refusal = status(HttpResponseStatus.valueOf(status));
            if (status == ServerHandshake.UPGRADE_REQUIRED) {
                refusal.headers().set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, Handshake.VERSION);
            }
            respondAndClose(ctx, refusal);
            return;
        }
        upgrading = true;
        try {
            removeHttpHandlers(ctx.pipeline());
        } finally {
            upgrading = false;
        }
        connection.opened();
        if (held != null) {
            ByteBuf early = held;
            held = null;
            connection.onInput(early);
        }
    }

    /**
     * Removes every Netty HTTP handler in front of this one, last first, so bytes the decoder still
     * holds reach this handler and nothing else. Other handlers (TLS) stay.
     */
    private void removeHttpHandlers(ChannelPipeline pipeline) {
        List<ChannelHandler> http = new ArrayList<>();
        for (Map.Entry<String, ChannelHandler> entry : pipeline) {
            ChannelHandler handler = entry.getValue();
            if (handler == this) {
                break;
            }
            if (handler.getClass().getName().startsWith("io.netty.handler.codec.http")) {
                http.add(handler);
            }
        }
        for (int i = http.size() - 1; i >= 0; i--) {
            pipeline.remove(http.get(i));
        }
    }

    private static FullHttpResponse status(HttpResponseStatus status) {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
    }

    private static void respondAndClose(ChannelHandlerContext ctx, FullHttpResponse response) {
        HttpUtil.setContentLength(response, response.content().readableBytes());
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        connection.onWritabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (held != null) {
            held.release();
            held = null;
        }
        connection.onChannelClosed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Resets and listener failures end the connection; channelInactive then tells the engine.
        ctx.close();
    }
}
