package io.tern.netty.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpCounters;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpService;
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
 * Tern's HTTP server hands a connection that asks for a WebSocket at {@code /nostr} to a
 * {@link WebSocketEndpoint} (the route's upgrade handler), after serving an ordinary request on the
 * same connection, as the origin does with the Nostr relay.
 */
class HttpHandOffTest {
    private final List<String> heard = new ArrayList<>();
    private final WebSocketEndpoint endpoint = new WebSocketEndpoint(WebSocketConfig.defaults(), request -> {
        if (request.path().endsWith("/gone")) {
            return null;
        }
        heard.add("accept " + request.path());
        return (connection, text, buf, offset, length) -> {
            heard.add("message " + new String(buf, offset, length, StandardCharsets.UTF_8));
            connection.send(text, buf, offset, length);
        };
    });
    private final HttpService service = new HttpService(
            HttpRoutes.builder()
                    .get(
                            "/index",
                            "api",
                            ex -> ex.reply(HttpResponseStatus.OK)
                                    .cache(CacheControl.noStore())
                                    .send("origin"))
                    .upgrade("/nostr", "websocket", "nostr", endpoint)
                    .upgrade("/nostr/gone", "websocket", "nostr", endpoint)
                    .build(),
            HttpLimits.DEFAULTS);
    private final EmbeddedChannel channel = new EmbeddedChannel(service.initializer(null));

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    private String written() {
        channel.runPendingTasks();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
            byte[] chunk = new byte[buf.readableBytes()];
            buf.readBytes(chunk);
            buf.release();
            out.write(chunk, 0, chunk.length);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private void send(String text, byte[]... more) {
        ByteBuf bytes = Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
        channel.writeInbound(more.length == 0 ? bytes : Unpooled.wrappedBuffer(bytes, Unpooled.wrappedBuffer(more)));
    }

    @Test
    void anUpgradeOnAPathBecomesAWebSocketAfterOrdinaryRequests() {
        send("GET /index HTTP/1.1\r\nHost: h\r\n\r\n");
        assertThat(written()).startsWith("HTTP/1.1 200 OK").endsWith("origin");

        // The first frame arrives in the same packet as the request: the HTTP decoder has read it.
        byte[] frame = Frames.clientFrame(true, 0, Opcode.TEXT, "[\"REQ\",\"s\",{}]".getBytes(StandardCharsets.UTF_8));
        send(Frames.UPGRADE_REQUEST.replace("/chat", "/nostr"), frame);
        String answer = written();
        assertThat(answer)
                .startsWith("HTTP/1.1 101 Switching Protocols\r\n")
                .contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n")
                .endsWith("\u0081\u000e[\"REQ\",\"s\",{}]");
        assertThat(heard).containsExactly("accept /nostr", "message [\"REQ\",\"s\",{}]");
        assertThat(channel.pipeline().names())
                .noneMatch(name -> name.contains("Http"))
                .anyMatch(name -> name.contains("WebSocketHandler"));
        assertThat(channel.isOpen()).isTrue();
        assertThat(service.counters().count(HttpCounters.Event.PROTOCOL_UPGRADE))
                .isEqualTo(1);

        send("", Frames.clientFrame(true, 0, Opcode.TEXT, "again".getBytes(StandardCharsets.UTF_8)));
        assertThat(written()).isEqualTo("\u0081\u0005again");
    }

    @Test
    void aRefusedHandshakeIsAnsweredThroughAnHttpEncoderAndCloses() {
        send(Frames.UPGRADE_REQUEST.replace("/chat", "/nostr").replace("Version: 13", "Version: 7"));
        assertThat(written()).startsWith("HTTP/1.1 426 Upgrade Required\r\n").contains("sec-websocket-version: 13");
        assertThat(channel.isOpen()).isFalse();
        assertThat(heard).containsExactly("accept /nostr");
    }

    @Test
    void aRequestTheAcceptorRefusesIsA404() {
        send(Frames.UPGRADE_REQUEST.replace("/chat", "/nostr/gone"));
        assertThat(written()).startsWith("HTTP/1.1 404 Not Found\r\n");
        assertThat(channel.isOpen()).isFalse();
    }
}
