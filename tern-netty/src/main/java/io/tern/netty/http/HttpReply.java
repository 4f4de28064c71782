package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.AsciiString;

/**
 * One response being put together: status and headers, then exactly one of {@link #send()},
 * {@link #send(ByteBuf)}, {@link #send(SharedBody)}, {@link #send(CharSequence)} or
 * {@link #stream()}. The server adds {@code Date}, {@code Content-Length}, CORS, gzip (text types
 * only, when the client accepts it), {@code ETag}/{@code Last-Modified} with 304 answers to
 * conditional requests, and drops the body of a HEAD answer.
 *
 * <p>May be built and sent from any thread; the send runs on the connection's event loop.
 */
public final class HttpReply {
    private static final AsciiString TEXT_UTF8 = AsciiString.cached("text/plain; charset=utf-8");

    private final HttpExchange exchange;
    final HttpResponseStatus status;
    /**
     * The handler's own headers, made on first use: most answers have none, and the server writes
     * its headers into a response headers object its connection reuses.
     */
    private HttpHeaders headers;

    CharSequence contentType;
    CacheControl cache;
    AsciiString etag;
    long lastModifiedMs = -1;
    boolean gzip = true;

    HttpReply(HttpExchange exchange, HttpResponseStatus status) {
        this.exchange = exchange;
        this.status = status;
    }

    public HttpReply header(CharSequence name, Object value) {
        headers().add(name, value);
        return this;
    }

    /** The handler's headers, made now if there are none yet. */
    HttpHeaders headers() {
        if (headers == null) {
            headers = DefaultHttpHeadersFactory.headersFactory().newHeaders();
        }
        return headers;
    }

    /** The handler's headers; null when it set none. */
    HttpHeaders headersOrNull() {
        return headers;
    }

    public HttpReply contentType(CharSequence type) {
        this.contentType = type;
        return this;
    }

    public HttpReply cache(CacheControl control) {
        this.cache = control;
        return this;
    }

    /** A strong entity tag, quotes included; for a {@link SharedBody} its own is used unless this is set. */
    public HttpReply etag(CharSequence tag) {
        this.etag = AsciiString.of(tag);
        return this;
    }

    public HttpReply lastModified(long epochMs) {
        this.lastModifiedMs = epochMs;
        return this;
    }

    /** Never gzip this answer, even for a text type. */
    public HttpReply identity() {
        this.gzip = false;
        return this;
    }

    /** No body. */
    public void send() {
        exchange.sendFull(this, Unpooled.EMPTY_BUFFER, null);
    }

    /** {@code body} is sent as it is and released by the server. */
    public void send(ByteBuf body) {
        exchange.sendFull(this, body, null);
    }

    /** The shared bytes, neither copied nor released (see {@link SharedBody}). */
    public void send(SharedBody body) {
        exchange.sendFull(this, null, body);
    }

    /** UTF-8 text; {@code text/plain} unless a content type was set. */
    public void send(CharSequence text) {
        if (contentType == null) {
            contentType = TEXT_UTF8;
        }
        exchange.sendFull(this, ByteBufUtil.writeUtf8(exchange.alloc(), text), null);
    }

    /** Sends the headers now and the body as it is written: chunked on HTTP/1.1, DATA frames on HTTP/2. */
    public BodyStream stream() {
        return exchange.startStream(this);
    }
}
