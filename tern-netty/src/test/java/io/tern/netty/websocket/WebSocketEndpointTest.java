package io.tern.netty.websocket;

import static io.tern.websocket.engine.Frames.clientFrame;
import static io.tern.websocket.engine.Frames.concat;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.tern.websocket.engine.CloseCodes;
import io.tern.websocket.engine.Frames;
import io.tern.websocket.engine.WebSocketConfig;
import io.tern.websocket.frame.Opcode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The adapter on its own port, in memory (Netty's EmbeddedChannel, whose clock the test moves):
 * the HTTP stage, the upgrade, echo batching and flushing, plain HTTP answers, and the timers.
 */
class WebSocketEndpointTest {
    private final List<String> events = new ArrayList<>();
    private final List<String> requests = new ArrayList<>();
    private EmbeddedChannel channel;
    /** A broadcast body, in direct memory, for the zero-copy send. */
    private final ByteBuf shared =
            Unpooled.directBuffer().writeBytes("{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8));

    /** Echoes, records what it hears, and answers plain HTTP with the request's path. */
    private final class Recorder implements WebSocketListener {
        @Override
        public void onOpen(WebSocketConnection connection) {
            events.add("open " + connection.request().path());
        }

        @Override
        public void onMessage(WebSocketConnection connection, boolean text, byte[] buf, int offset, int length) {
            String message = new String(buf, offset, length, StandardCharsets.UTF_8);
            events.add("message " + message);
            if (message.equals("share")) {
                connection.send(true, "[\"EVENT\",\"s\",".getBytes(StandardCharsets.UTF_8), shared, new byte[] {']'});
            } else {
                connection.send(text, buf, offset, length);
            }
        }

        @Override
        public void onClose(WebSocketConnection connection, int code, String reason) {
            events.add("close " + code);
        }
    }

    private final WebSocketAcceptor acceptor = new WebSocketAcceptor() {
        @Override
        public WebSocketListener accept(WebSocketRequest request) {
            requests.add(request.method() + " " + request.target() + " host=" + request.host());
            return request.path().equals("/missing") ? null : new Recorder();
        }

        @Override
        public FullHttpResponse respond(WebSocketRequest request) {
            requests.add("plain " + request.path() + " accept=" + request.field("accept"));
            FullHttpResponse response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1,
                    HttpResponseStatus.OK,
                    Unpooled.copiedBuffer("{\"name\":\"tern\"}", StandardCharsets.UTF_8));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/nostr+json");
            return response;
        }
    };

    private EmbeddedChannel open(WebSocketConfig config) {
        WebSocketEndpoint endpoint = new WebSocketEndpoint(config, acceptor);
        channel = new EmbeddedChannel();
        channel.freezeTime();
        endpoint.initChannel(channel);
        return channel;
    }

    @AfterEach
    void release() {
        shared.release();
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private static ByteBuf bytes(byte[] bytes) {
        return Unpooled.wrappedBuffer(bytes);
    }

    private static byte[] request(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Everything written to the socket so far, with the number of writes. */
    private record Written(byte[] bytes, int writes) {
        String text() {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    private Written written() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int writes = 0;
        for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
            if (buf.isReadable()) {
                writes++;
            }
            byte[] chunk = new byte[buf.readableBytes()];
            buf.readBytes(chunk);
            buf.release();
            out.write(chunk, 0, chunk.length);
        }
        return new Written(out.toByteArray(), writes);
    }

    private void upgrade() {
        channel.writeInbound(bytes(request(Frames.UPGRADE_REQUEST)));
        assertThat(written().text()).startsWith("HTTP/1.1 101 Switching Protocols\r\n");
    }

    @Test
    void upgradesAndEchoesEveryMessageOfOneReadInOneWrite() {
        open(WebSocketConfig.defaults());
        upgrade();
        assertThat(requests).containsExactly("GET /chat host=server.example.com");
        assertThat(channel.pipeline().names()).noneMatch(name -> name.contains("Http"));
        channel.writeInbound(bytes(concat(
                clientFrame(true, 0, Opcode.TEXT, "one".getBytes(StandardCharsets.UTF_8)),
                clientFrame(true, 0, Opcode.TEXT, "two".getBytes(StandardCharsets.UTF_8)),
                clientFrame(true, 0, Opcode.TEXT, "three".getBytes(StandardCharsets.UTF_8)))));
        Written echoes = written();
        assertThat(echoes.writes()).as("one write, one flush for the read").isEqualTo(1);
        assertThat(echoes.bytes())
                .containsExactly(concat(
                        Frames.frame(true, 0, Opcode.TEXT, "one".getBytes(StandardCharsets.UTF_8), false),
                        Frames.frame(true, 0, Opcode.TEXT, "two".getBytes(StandardCharsets.UTF_8), false),
                        Frames.frame(true, 0, Opcode.TEXT, "three".getBytes(StandardCharsets.UTF_8), false)));
        assertThat(events).containsExactly("open /chat", "message one", "message two", "message three");
    }

    @Test
    void aDirectBodyIsSentAsASliceOfTheSharedBufferWithItsPrefixAndSuffixCopiedInWithTheHeader() {
        open(WebSocketConfig.defaults());
        upgrade();
        channel.writeInbound(bytes(clientFrame(true, 0, Opcode.TEXT, "share".getBytes(StandardCharsets.UTF_8))));
        List<ByteBuf> out = new ArrayList<>();
        for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
            out.add(buf);
        }
        assertThat(out)
                .as("the shared bytes themselves, not a copy")
                .anyMatch(buf -> buf.hasMemoryAddress()
                        && buf.memoryAddress() + buf.readerIndex() == shared.memoryAddress() + shared.readerIndex());
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (ByteBuf buf : out) {
            byte[] chunk = new byte[buf.readableBytes()];
            buf.readBytes(chunk);
            buf.release();
            wire.write(chunk, 0, chunk.length);
        }
        assertThat(wire.toByteArray())
                .containsExactly(Frames.frame(
                        true,
                        0,
                        Opcode.TEXT,
                        "[\"EVENT\",\"s\",{\"id\":\"x\"}]".getBytes(StandardCharsets.UTF_8),
                        false));
        assertThat(shared.refCnt()).as("the caller's reference is untouched").isEqualTo(1);
    }

    @Test
    void framesThatArriveWithTheRequestAreDecodedAfterTheUpgrade() {
        open(WebSocketConfig.defaults());
        channel.writeInbound(bytes(concat(
                request(Frames.UPGRADE_REQUEST),
                clientFrame(true, 0, Opcode.TEXT, "early".getBytes(StandardCharsets.UTF_8)))));
        Written out = written();
        assertThat(out.text()).startsWith("HTTP/1.1 101 ").endsWith("\r\n\r\n\u0081\u0005early");
        assertThat(events).containsExactly("open /chat", "message early");
    }

    @Test
    void aPlainRequestIsAnsweredByTheAcceptorAndTheConnectionCloses() {
        open(WebSocketConfig.defaults());
        channel.writeInbound(bytes(request("GET / HTTP/1.1\r\nHost: relay\r\nAccept: application/nostr+json\r\n\r\n")));
        String response = written().text();
        assertThat(response)
                .startsWith("HTTP/1.1 200 OK\r\n")
                .contains("content-type: application/nostr+json\r\n")
                .contains("content-length: 15\r\n")
                .endsWith("{\"name\":\"tern\"}");
        assertThat(requests).containsExactly("plain / accept=application/nostr+json");
        assertThat(channel.isOpen()).isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void refusalsAreHttpAnswers() {
        String[][] cases = {
            {Frames.UPGRADE_REQUEST.replace("/chat", "/missing"), "HTTP/1.1 404 "},
            {Frames.UPGRADE_REQUEST.replace("Version: 13", "Version: 8"), "HTTP/1.1 426 "},
            {Frames.UPGRADE_REQUEST.replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", ""), "HTTP/1.1 400 "},
            {
                Frames.UPGRADE_REQUEST.replace("\r\n\r\n", "\r\nX-Padding: " + "a".repeat(9000) + "\r\n\r\n"),
                "HTTP/1.1 431 "
            },
            {"GET /" + "a".repeat(5000) + " HTTP/1.1\r\n\r\n", "HTTP/1.1 414 "},
        };
        for (String[] c : cases) {
            open(WebSocketConfig.defaults());
            channel.writeInbound(bytes(request(c[0])));
            String response = written().text();
            assertThat(response).as(c[1]).startsWith(c[1]);
            if (c[1].contains("426")) {
                assertThat(response).contains("sec-websocket-version: 13\r\n");
            }
            assertThat(channel.isOpen()).isFalse();
            channel.finishAndReleaseAll();
        }
        assertThat(events).isEmpty();
    }

    @Test
    void aConnectionThatNeverCompletesItsHandshakeIsClosedAtTheDeadline() {
        open(WebSocketConfig.defaults().withTimeouts(TimeUnit.SECONDS.toNanos(3), 1, 1));
        channel.writeInbound(bytes(request("GET /chat HTTP/1.1\r\nHost: x\r\n")));
        channel.advanceTimeBy(2999, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).isTrue();
        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void anUnansweredCloseTimesOutOnTheLoopsClock() {
        open(WebSocketConfig.defaults().withTimeouts(1, TimeUnit.SECONDS.toNanos(5), 1));
        WebSocketConnection[] connection = new WebSocketConnection[1];
        upgrade();
        channel.pipeline().forEach(entry -> {
            ChannelHandler handler = entry.getValue();
            if (handler instanceof WebSocketHandler ws) {
                connection[0] = ws.connection();
            }
        });
        connection[0].close(CloseCodes.GOING_AWAY, "bye");
        assertThat(written().bytes())
                .as("flushed at the end of the loop's turn")
                .isEmpty();
        channel.runPendingTasks();
        assertThat(written().bytes()).startsWith(0x88, 5, 0x03, 0xE9);
        channel.advanceTimeBy(4999, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).isTrue();
        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).isFalse();
        assertThat(events).containsExactly("open /chat", "close " + CloseCodes.ABNORMAL);
    }

    @Test
    void aProtocolErrorIsAnsweredWithACloseFrameAndTheListenerHearsOfIt() {
        open(WebSocketConfig.defaults());
        upgrade();
        channel.writeInbound(bytes(Frames.clientFrameInLengthForm(Opcode.TEXT, new byte[3], 2)));
        byte[] close = written().bytes();
        assertThat(close[0] & 0xFF).isEqualTo(0x88);
        assertThat(((close[2] & 0xFF) << 8) | (close[3] & 0xFF)).isEqualTo(CloseCodes.PROTOCOL_ERROR);
        assertThat(events).containsExactly("open /chat", "close " + CloseCodes.PROTOCOL_ERROR);
    }
}
