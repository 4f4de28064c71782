package io.tern.netty.http;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.FastThreadLocal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * One client connection's state, kept on the connection's channel and reached from its HTTP/2
 * stream channels. Confined to the connection's event loop (its streams share it).
 */
final class HttpConnection {
    private static final AttributeKey<HttpConnection> KEY = AttributeKey.valueOf("tern.http.connection");
    /**
     * One spare response-header object per event-loop thread, not per connection: a response's
     * headers are taken, written and given back on one stack, so an idle connection keeps none.
     */
    private static final FastThreadLocal<HttpHeaders[]> SPARE_RESPONSE_HEADERS = new FastThreadLocal<>() {
        @Override
        protected HttpHeaders[] initialValue() {
            return new HttpHeaders[1];
        }
    };

    private final InetSocketAddress remote;
    private final boolean secure;
    private ConnectionGuard guard;
    private boolean http2;
    private boolean counted;
    private int activeExchanges;

    HttpConnection(SocketAddress remote, boolean secure) {
        // EmbeddedChannel (benchmarks, tests) has no socket address: such connections share one key.
        this.remote = remote instanceof InetSocketAddress inet ? inet : null;
        this.secure = secure;
    }

    static void attach(Channel channel, HttpConnection connection) {
        channel.attr(KEY).set(connection);
    }

    static HttpConnection of(Channel channel) {
        Channel connection = channel instanceof Http2StreamChannel ? channel.parent() : channel;
        return connection.attr(KEY).get();
    }

    InetSocketAddress remote() {
        return remote;
    }

    /** The client's IP for the per-IP limits; null when unknown. */
    InetAddress ip() {
        return remote == null ? null : remote.getAddress();
    }

    boolean secure() {
        return secure;
    }

    boolean http2() {
        return http2;
    }

    void http2(boolean value) {
        http2 = value;
    }

    /** True the first time only: the connection's protocol is counted once. */
    boolean countOnce() {
        boolean first = !counted;
        counted = true;
        return first;
    }

    ConnectionGuard guard() {
        return guard;
    }

    void guard(ConnectionGuard value) {
        guard = value;
    }

    void exchangeStarted() {
        activeExchanges++;
    }

    void exchangeEnded() {
        activeExchanges--;
    }

    /**
     * Empty headers for one response, to be given back with {@link #returnResponseHeaders} once the
     * response is written: the codecs encode (HTTP/1.1) or copy (HTTP/2) them during the write, so
     * one object serves every response written on the thread. A response written while another is
     * being written (a nested write) gets a new one.
     */
    HttpHeaders takeResponseHeaders() {
        HttpHeaders[] spare = SPARE_RESPONSE_HEADERS.get();
        HttpHeaders headers = spare[0];
        if (headers == null) {
            return DefaultHttpHeadersFactory.headersFactory().newHeaders();
        }
        spare[0] = null;
        return headers;
    }

    void returnResponseHeaders(HttpHeaders headers) {
        headers.clear();
        SPARE_RESPONSE_HEADERS.get()[0] = headers;
    }

    /** Requests being handled, held or streamed on this connection now. */
    int activeExchanges() {
        return activeExchanges;
    }
}
