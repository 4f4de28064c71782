package io.tern.netty.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Streamed bodies, zero-copy sharing and the upgrade seam, on an embedded channel. */
class StreamAndUpgradeTest {
    private final List<BodyStream> streams = new ArrayList<>();
    private final List<UpgradeRequest> upgrades = new ArrayList<>();
    private final AtomicInteger cancelled = new AtomicInteger();
    private final SharedBody big = SharedBody.of(new byte[1 << 20], "video/mp4");
    private EmbeddedHttp http;

    @AfterEach
    void close() {
        if (http != null) {
            http.close();
        }
        upgrades.forEach(u -> u.leftover().release());
        big.release();
    }

    private EmbeddedHttp start() {
        UpgradeHandler echo = new UpgradeHandler() {
            @Override
            public HttpResponseStatus check(io.netty.handler.codec.http.HttpRequest request) {
                return request.headers().contains("X-Refuse") ? HttpResponseStatus.FORBIDDEN : null;
            }

            @Override
            public void takeOver(UpgradeRequest upgrade) {
                upgrades.add(upgrade);
                upgrade.channel().pipeline().addLast(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ctx.writeAndFlush(msg); // echo raw bytes
                    }
                });
                upgrade.channel()
                        .writeAndFlush(Unpooled.copiedBuffer(
                                "HTTP/1.1 101 Switching Protocols\r\n\r\n", StandardCharsets.US_ASCII));
            }
        };
        HttpRoutes routes = HttpRoutes.builder()
                .get("/part", "part", ex -> {
                    BodyStream stream = ex
                            .reply(HttpResponseStatus.OK)
                            .contentType("video/mp4")
                            .cache(CacheControl.immutable())
                            .stream();
                    ex.onCancel(cancelled::incrementAndGet);
                    streams.add(stream);
                })
                .get("/big", "segment", ex -> ex.respond(big, CacheControl.immutable()))
                .upgrade("/ws", "websocket", "websocket", echo)
                .build();
        http = new EmbeddedHttp(routes, HttpLimits.DEFAULTS);
        return http;
    }

    @Test
    void aStreamedBodyIsChunkedAsItIsWrittenAndTheConnectionIsReusedAfterIt() {
        start().get("/part");
        String head = http.rawOutput();
        assertThat(head).startsWith("HTTP/1.1 200 OK\r\n").contains("transfer-encoding: chunked\r\n");
        assertThat(head).doesNotContain("content-length");
        BodyStream stream = streams.get(0);
        assertThat(stream.write(Unpooled.copiedBuffer("first", StandardCharsets.US_ASCII)))
                .isTrue();
        assertThat(http.rawOutput()).isEqualTo("5\r\nfirst\r\n");
        assertThat(stream.write(Unpooled.copiedBuffer("second!", StandardCharsets.US_ASCII)))
                .isTrue();
        assertThat(http.rawOutput()).isEqualTo("7\r\nsecond!\r\n");
        stream.end();
        assertThat(http.rawOutput()).isEqualTo("0\r\n\r\n");
        assertThat(stream.isOpen()).isFalse();
        assertThat(stream.write(Unpooled.copiedBuffer("late", StandardCharsets.US_ASCII)))
                .isFalse();
        assertThat(http.service.counters().bodyBytes()).isEqualTo(12);
        assertThat(http.service.counters().count(HttpCounters.Event.STREAMED_RESPONSE))
                .isEqualTo(1);

        http.get("/big");
        FullHttpResponse next = http.response();
        assertThat(next.status()).isEqualTo(HttpResponseStatus.OK);
        next.release();
        assertThat(cancelled.get()).isZero();
    }

    @Test
    void theLastChunkAndTheEndOfABodyLeaveInOneFlush() {
        start().get("/part");
        http.rawOutput();
        AtomicInteger flushes = new AtomicInteger();
        http.server.pipeline().addFirst(new io.netty.channel.ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes.incrementAndGet();
                ctx.flush();
            }
        });
        BodyStream stream = streams.get(0);
        stream.write(Unpooled.copiedBuffer("first", StandardCharsets.US_ASCII));
        assertThat(flushes.get()).as("a chunk is flushed as it is written").isEqualTo(1);
        stream.end(Unpooled.copiedBuffer("last", StandardCharsets.US_ASCII));
        assertThat(flushes.get()).as("the last chunk and the end: one flush").isEqualTo(2);
        assertThat(http.rawOutput()).isEqualTo("5\r\nfirst\r\n4\r\nlast\r\n0\r\n\r\n");
        assertThat(stream.isOpen()).isFalse();
        assertThat(http.service.counters().bodyBytes()).isEqualTo(9);

        ByteBuf late = Unpooled.copiedBuffer("late", StandardCharsets.US_ASCII);
        stream.end(late);
        assertThat(late.refCnt()).as("an end after the end releases its bytes").isZero();
        assertThat(http.rawOutput()).isEmpty();
    }

    @Test
    void aStreamWrittenFromAnotherThreadKeepsItsOrder() throws Exception {
        start().get("/part");
        http.rawOutput();
        BodyStream stream = streams.get(0);
        Thread writer = new Thread(() -> {
            for (int i = 0; i < 50; i++) {
                stream.write(Unpooled.copiedBuffer(Integer.toString(i % 10), StandardCharsets.US_ASCII));
            }
            stream.end();
        });
        writer.start();
        writer.join();
        StringBuilder body = new StringBuilder();
        String raw = http.rawOutput();
        String[] lines = raw.split("\r\n");
        for (int i = 0; i + 1 < lines.length; i += 2) {
            assertThat(Integer.parseInt(lines[i], 16)).isEqualTo(lines[i + 1].length());
            body.append(lines[i + 1]);
        }
        assertThat(body.toString()).isEqualTo("0123456789".repeat(5));
        assertThat(raw).endsWith("0\r\n\r\n");
    }

    @Test
    void aStreamOverHttp10EndsWithTheConnection() {
        start().send("GET /part HTTP/1.0\r\n\r\n");
        String head = http.rawOutput();
        assertThat(head).startsWith("HTTP/1.0 200 OK\r\n").contains("connection: close\r\n");
        assertThat(head).doesNotContain("chunked");
        streams.get(0).write(Unpooled.copiedBuffer("raw", StandardCharsets.US_ASCII));
        assertThat(http.rawOutput()).isEqualTo("raw");
        streams.get(0).end();
        http.rawOutput();
        assertThat(http.server.isActive()).isFalse();
    }

    @Test
    void anAbortedStreamCutsTheConnectionWithoutTheLastChunk() {
        start().get("/part");
        BodyStream stream = streams.get(0);
        stream.write(Unpooled.copiedBuffer("half", StandardCharsets.US_ASCII));
        http.rawOutput();
        stream.abort();
        assertThat(http.rawOutput()).doesNotContain("0\r\n\r\n");
        assertThat(http.server.isActive()).isFalse();
        assertThat(stream.isOpen()).isFalse();
        assertThat(cancelled.get())
                .as("an abort is the server's doing, not a cancel")
                .isZero();
    }

    @Test
    void aClientGoneMidStreamCancelsIt() {
        start().get("/part");
        BodyStream stream = streams.get(0);
        stream.write(Unpooled.copiedBuffer("part", StandardCharsets.US_ASCII));
        http.server.close();
        assertThat(cancelled.get()).isEqualTo(1);
        ByteBuf late = Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII);
        assertThat(stream.write(late)).isFalse();
        assertThat(late.refCnt()).isZero();
        assertThat(stream.isOpen()).isFalse();
    }

    @Test
    void serving1MiBToFiftyViewersSendsTheSameMemoryFiftyTimesWithoutCopying() {
        start();
        long address = big.content().memoryAddress();
        int sameMemory = 0;
        for (int i = 0; i < 50; i++) {
            http.get("/big");
            for (ByteBuf out : http.outboundBuffers()) {
                if (out.readableBytes() == big.length()) {
                    assertThat(out.hasMemoryAddress()).isTrue();
                    assertThat(out.memoryAddress()).isEqualTo(address);
                    sameMemory++;
                }
                out.release();
            }
        }
        assertThat(sameMemory).isEqualTo(50);
        assertThat(big.refCnt()).as("every response let go of its view").isEqualTo(1);
        assertThat(http.service.counters().bodyBytes()).isEqualTo(50L << 20);
    }

    @Test
    void anUpgradeRouteHandsTheConnectionOverWithTheBytesReadPastTheRequest() {
        start().send("GET /ws?x=1 HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\nEARLY");
        assertThat(upgrades).hasSize(1);
        UpgradeRequest upgrade = upgrades.get(0);
        assertThat(upgrade.request().uri()).isEqualTo("/ws?x=1");
        assertThat(upgrade.request().headers().get("Sec-WebSocket-Key")).isEqualTo("dGhlIHNhbXBsZSBub25jZQ==");
        assertThat(upgrade.leftover().toString(StandardCharsets.US_ASCII)).isEqualTo("EARLY");
        ByteBuf head = upgrade.encodedHead();
        assertThat(head.toString(StandardCharsets.ISO_8859_1))
                .startsWith("GET /ws?x=1 HTTP/1.1\r\n")
                .contains("Upgrade: websocket\r\n")
                .endsWith("\r\n\r\n");
        head.release();
        assertThat(http.server.pipeline().get(HttpServerCodec.class)).isNull();
        assertThat(http.server.pipeline().get(HttpObjectAggregator.class)).isNull();
        assertThat(http.server.pipeline().get(ConnectionGuard.class)).isNull();
        assertThat(http.rawOutput()).isEqualTo("HTTP/1.1 101 Switching Protocols\r\n\r\n");
        http.send("frame bytes");
        assertThat(http.rawOutput()).isEqualTo("frame bytes");
        assertThat(http.service.counters().count(HttpCounters.Event.PROTOCOL_UPGRADE))
                .isEqualTo(1);
        assertThat(http.service.counters().requests("websocket", 101)).isEqualTo(1);
    }

    @Test
    void anUpgradeRefusedByItsCheckIsAnOrdinaryAnswer() {
        start().send("GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Refuse: 1\r\n\r\n");
        FullHttpResponse refused = http.response();
        assertThat(refused.status()).isEqualTo(HttpResponseStatus.FORBIDDEN);
        refused.release();
        assertThat(upgrades).isEmpty();
        http.get("/ws");
        FullHttpResponse plain = http.response();
        assertThat(plain.status()).isEqualTo(HttpResponseStatus.UPGRADE_REQUIRED);
        assertThat(plain.headers().get("Upgrade")).isEqualTo("websocket");
        plain.release();
        assertThat(http.server.isActive()).isTrue();
    }
}
