package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server connection on an {@link EmbeddedChannel}, with simulated time: raw request bytes in,
 * responses out, decoded by Netty's client-side decoder. For HEAD answers (which that decoder
 * cannot frame) read the raw bytes.
 */
final class EmbeddedHttp implements AutoCloseable {
    final HttpService service;
    final EmbeddedChannel server;
    private final EmbeddedChannel client =
            new EmbeddedChannel(new HttpResponseDecoder(), new HttpObjectAggregator(1 << 24));

    EmbeddedHttp(HttpService service) {
        this.service = service;
        this.server = new EmbeddedChannel();
        server.freezeTime();
        server.pipeline().addLast(service.initializer(null));
    }

    EmbeddedHttp(HttpRoutes routes, HttpLimits limits) {
        this(new HttpService(routes, limits));
    }

    void send(String raw) {
        server.writeInbound(Unpooled.copiedBuffer(raw, StandardCharsets.ISO_8859_1));
    }

    void get(String target, String... headers) {
        StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: test\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        send(request.append("\r\n").toString());
    }

    /** Runs what the loop has to run, then the next complete response, or null. */
    FullHttpResponse response() {
        server.runPendingTasks();
        ByteBuf out;
        while ((out = server.readOutbound()) != null) {
            client.writeInbound(out);
        }
        return client.readInbound();
    }

    /** Every outbound buffer written so far, as they are (not copied), for zero-copy checks. */
    List<ByteBuf> outboundBuffers() {
        server.runPendingTasks();
        List<ByteBuf> buffers = new ArrayList<>();
        ByteBuf out;
        while ((out = server.readOutbound()) != null) {
            buffers.add(out);
        }
        return buffers;
    }

    /** All outbound bytes so far as text. */
    String rawOutput() {
        StringBuilder text = new StringBuilder();
        for (ByteBuf out : outboundBuffers()) {
            text.append(out.toString(StandardCharsets.ISO_8859_1));
            out.release();
        }
        return text.toString();
    }

    void advance(long duration, TimeUnit unit) {
        server.advanceTimeBy(duration, unit);
        server.runScheduledPendingTasks();
        server.runPendingTasks();
    }

    @Override
    public void close() {
        server.finishAndReleaseAll();
        client.finishAndReleaseAll();
    }
}
