package io.tern.netty.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BodilessRequestsTest {
    private final EmbeddedChannel channel = new EmbeddedChannel(new BodilessRequests(1024));

    @Test
    void aRequestWithoutBodyBecomesFullWithTheEmptyBufferAndContentLengthZero() {
        HttpRequest get = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/live/a/part.m4s");
        get.headers().set(HttpHeaderNames.HOST, "origin");
        channel.writeInbound(get, LastHttpContent.EMPTY_LAST_CONTENT);

        FullHttpRequest full = channel.readInbound();
        assertThat(full.uri()).isEqualTo("/live/a/part.m4s");
        assertThat(full.headers().get(HttpHeaderNames.HOST)).isEqualTo("origin");
        assertThat(full.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("0");
        assertThat(full.content()).isSameAs(Unpooled.EMPTY_BUFFER);
        assertThat(full.trailingHeaders().isEmpty()).isTrue();
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void requestsWithoutBodyNeverGetAnAggregator() {
        for (int i = 0; i < 3; i++) {
            channel.writeInbound(
                    new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/p" + i),
                    LastHttpContent.EMPTY_LAST_CONTENT);
            FullHttpRequest full = channel.readInbound();
            assertThat(full.uri()).isEqualTo("/p" + i);
            full.release();
        }
        assertThat(channel.pipeline().get(BodilessRequests.AGGREGATOR_NAME)).isNull();
    }

    @Test
    void aRequestWithABodyGetsTheAggregatorBehindItAndIsAggregated() {
        HttpRequest post = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/api");
        post.headers().set(HttpHeaderNames.CONTENT_LENGTH, 2);
        HttpContent body = new DefaultLastHttpContent(Unpooled.copiedBuffer("hi", StandardCharsets.US_ASCII));
        channel.writeInbound(post, body);

        assertThat(channel.pipeline().get(BodilessRequests.AGGREGATOR_NAME)).isInstanceOf(HttpObjectAggregator.class);
        FullHttpRequest full = channel.readInbound();
        assertThat(full.uri()).isEqualTo("/api");
        assertThat(full.content().toString(StandardCharsets.US_ASCII)).isEqualTo("hi");
        full.release();
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void expectAndTransferEncodingAreLeftToTheAggregatorInOrder() {
        HttpRequest expect = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/a");
        expect.headers().set(HttpHeaderNames.EXPECT, "100-continue");
        HttpRequest chunked = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/b");
        chunked.headers().set(HttpHeaderNames.TRANSFER_ENCODING, "chunked");
        HttpContent chunk = new DefaultLastHttpContent(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII));
        channel.writeInbound(expect, LastHttpContent.EMPTY_LAST_CONTENT, chunked, chunk);

        FullHttpRequest first = channel.readInbound();
        assertThat(first.uri()).isEqualTo("/a");
        first.release();
        FullHttpRequest second = channel.readInbound();
        assertThat(second.uri()).isEqualTo("/b");
        assertThat(second.content().toString(StandardCharsets.US_ASCII)).isEqualTo("x");
        second.release();
        channel.finishAndReleaseAll();
    }
}
