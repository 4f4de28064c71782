package io.tern.netty.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.tern.websocket.engine.Frames;
import io.tern.websocket.engine.WebSocketConfig;
import io.tern.websocket.frame.Opcode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An HTTP server's connection (Netty's codec and a router of its own) that hands a request for
 * {@code /nostr} to a {@link WebSocketEndpoint}, after serving an ordinary request on the same
 * connection, as the origin's HTTP server will.
 */
class HttpHandOffTest {
    private final List<String> heard = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final WebSocketEndpoint endpoint = new WebSocketEndpoint(WebSocketConfig.defaults(), request -> {
        heard.add("accept " + request.path());
        return (connection, text, buf, offset, length) -> {
            heard.add("message " + new String(buf, offset, length, StandardCharsets.UTF_8));
            connection.send(text, buf, offset, length);
        };
    });

    /** The HTTP server's own handler: serves /index, hands /nostr over. */
    private final class Router extends SimpleChannelInboundHandler<HttpObject> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest request)) {
                return;
            }
            if (request.uri().startsWith("/nostr")) {
                endpoint.upgrade(ctx, request);
                return;
            }
            FullHttpResponse response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1,
                    HttpResponseStatus.OK,
                    Unpooled.copiedBuffer("origin", StandardCharsets.US_ASCII));
            HttpUtil.setContentLength(response, 6);
            ctx.writeAndFlush(response);
        }
    }

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    private String written() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
            byte[] chunk = new byte[buf.readableBytes()];
            buf.readBytes(chunk);
            buf.release();
            out.write(chunk, 0, chunk.length);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void anUpgradeOnAPathBecomesAWebSocketAfterOrdinaryRequests() {
        Router router = new Router();
        channel.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(), router);
        channel.writeInbound(
                Unpooled.copiedBuffer("GET /index HTTP/1.1\r\nHost: h\r\n\r\n", StandardCharsets.US_ASCII));
        assertThat(written()).startsWith("HTTP/1.1 200 OK").endsWith("origin");

        String upgrade = Frames.UPGRADE_REQUEST.replace("/chat", "/nostr");
        byte[] frame = Frames.clientFrame(true, 0, Opcode.TEXT, "[\"REQ\",\"s\",{}]".getBytes(StandardCharsets.UTF_8));
        channel.writeInbound(Unpooled.wrappedBuffer(upgrade.getBytes(StandardCharsets.ISO_8859_1), frame));
        String answer = written();
        assertThat(answer)
                .startsWith("HTTP/1.1 101 Switching Protocols\r\n")
                .contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n")
                .endsWith("\u0081\u000e[\"REQ\",\"s\",{}]");
        assertThat(heard).containsExactly("accept /nostr", "message [\"REQ\",\"s\",{}]");
        assertThat(channel.pipeline().get(Router.class)).isNull();
        assertThat(channel.pipeline().get(HttpServerCodec.class)).isNull();
        assertThat(channel.pipeline().get(HttpServerKeepAliveHandler.class)).isNull();
        assertThat(channel.pipeline().get(WebSocketHandler.class)).isNotNull();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aRefusedHandOffIsAnsweredThroughTheHttpEncoder() {
        channel.pipeline().addLast(new HttpServerCodec(), new Router());
        channel.writeInbound(Unpooled.copiedBuffer(
                Frames.UPGRADE_REQUEST.replace("/chat", "/nostr").replace("Version: 13", "Version: 7"),
                StandardCharsets.ISO_8859_1));
        assertThat(written()).startsWith("HTTP/1.1 426 Upgrade Required\r\n").contains("sec-websocket-version: 13");
        assertThat(channel.isOpen()).isFalse();
    }
}
