package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.netty.stream.StreamEvent;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One request and its answer. Handlers read the request and answer it now, or hold it
 * ({@link #defer}) and answer it later from any thread, or stream the answer. The server cancels
 * a held or streaming exchange when its client goes away (the connection closes, or the HTTP/2
 * stream is reset) and then runs the {@link #onCancel} callback, so a table of held requests can
 * drop it.
 *
 * <p>Life: handling, then optionally held, then optionally streaming, then done; or cancelled
 * from any of these. Answering twice is a bug ({@link IllegalStateException}); answering a
 * cancelled exchange does nothing but release the body.
 */
public final class HttpExchange {
    private static final System.Logger LOG = System.getLogger("tern.http");
    private static final AsciiString TEXT_UTF8 = AsciiString.cached("text/plain; charset=utf-8");
    private static final AsciiString RETRY_ONE_SECOND = AsciiString.cached("1");

    private enum State {
        HANDLING,
        HELD,
        STREAMING,
        DONE,
        CANCELLED
    }

    private final HttpExchangeHandler owner;
    private final HttpService service;
    private final HttpConnection connection;
    private final FullHttpRequest request;
    private final EventLoop loop;
    private final String path;
    private final boolean head;
    private boolean keepAlive;
    private String[] captureNames = NO_NAMES;
    private String[] captures = NO_NAMES;
    private int kind;
    private State state = State.HANDLING;
    private boolean heldSlot;
    private ScheduledFuture<?> timeout;
    private Consumer<HttpExchange> onTimeout;
    private Runnable onCancel;
    private QueryStringDecoder query;
    private StreamWriter streamWriter;

    private static final String[] NO_NAMES = new String[0];

    HttpExchange(HttpExchangeHandler owner, FullHttpRequest request, String path, boolean keepAlive) {
        this.owner = owner;
        this.service = owner.service();
        this.connection = owner.connection();
        this.request = request;
        this.loop = owner.channel().eventLoop();
        this.path = path;
        this.head = request.method().equals(HttpMethod.HEAD);
        this.keepAlive = keepAlive;
    }

    void route(String kind, String[] names, String[] values) {
        this.kind = service.counters().kindIndex(kind);
        this.captureNames = names;
        this.captures = values;
    }

    // ---------------------------------------------------------------- the request

    public HttpMethod method() {
        return request.method();
    }

    /** The request target as sent: path and query. */
    public String uri() {
        return request.uri();
    }

    /** The path, without the query, not decoded. */
    public String path() {
        return path;
    }

    /** A capture of the route's pattern, percent-decoded; null if the pattern has no such capture. */
    public String pathParam(String name) {
        for (int i = 0; i < captureNames.length; i++) {
            if (captureNames[i].equals(name)) {
                return captures[i];
            }
        }
        return null;
    }

    /** The first value of query parameter {@code name}, or null. */
    public String query(String name) {
        List<String> values = queryParameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    public Map<String, List<String>> queryParameters() {
        if (query == null) {
            query = new QueryStringDecoder(request.uri());
        }
        return query.parameters();
    }

    public HttpHeaders headers() {
        return request.headers();
    }

    public String header(CharSequence name) {
        return request.headers().get(name);
    }

    /** The request body; valid until the exchange is done or cancelled. */
    public ByteBuf body() {
        return request.content();
    }

    public InetSocketAddress remoteAddress() {
        return connection.remote();
    }

    public boolean isHttp2() {
        return owner.http2();
    }

    public boolean isSecure() {
        return connection.secure();
    }

    /** The loop this exchange runs on; answers from other threads are handed to it. */
    public EventLoop eventLoop() {
        return loop;
    }

    /** Relabels this request in the counters with a kind the routes declared. */
    public HttpExchange kind(String kind) {
        this.kind = service.counters().kindIndex(kind);
        return this;
    }

    HttpService service() {
        return service;
    }

    ByteBufAllocator alloc() {
        return owner.channel().alloc();
    }

    // ---------------------------------------------------------------- answering

    public HttpReply reply(HttpResponseStatus status) {
        return new HttpReply(this, status);
    }

    /** An answer without a body; an error status gets its reason as a short text body and no-store. */
    public void respond(HttpResponseStatus status) {
        if (status.code() >= 400) {
            reply(status).cache(CacheControl.noStore()).send(status.code() + " " + status.reasonPhrase() + "\n");
        } else {
            reply(status).send();
        }
    }

    /** {@code body} is released by the server. */
    public void respond(HttpResponseStatus status, CharSequence contentType, ByteBuf body) {
        reply(status).contentType(contentType).send(body);
    }

    /** 200 with shared bytes. */
    public void respond(SharedBody body, CacheControl cache) {
        reply(HttpResponseStatus.OK).cache(cache).send(body);
    }

    /**
     * Holds this request, to be answered later, holding no thread. It counts against the held
     * limits: over the server's total it is answered 503 now, over its client IP's share 429, and
     * this returns false. After {@code timeout}, if still held (not answered, not streaming),
     * {@code onTimeout} runs on the event loop; if it does not answer, the server answers 503.
     */
    public boolean defer(long timeout, TimeUnit unit, Consumer<HttpExchange> onTimeout) {
        if (!hold()) {
            return false;
        }
        this.onTimeout = onTimeout;
        this.timeout = loop.schedule(this::timedOut, timeout, unit);
        return true;
    }

    /**
     * Holds this request with no timer of its own: its owner (an engine that keeps the held
     * request and its deadline, such as the LL-HLS packager) must answer it, in time. The held
     * limits apply as for {@link #defer}: over them the request is answered now and this returns
     * false.
     */
    public boolean hold() {
        checkInLoop("hold");
        if (state != State.HANDLING) {
            throw new IllegalStateException("hold: this exchange is already " + state);
        }
        StreamEvent refused = service.heldLimiter().tryAcquire(connection.ip());
        if (refused != null) {
            boolean total = refused == StreamEvent.REJECTED_TOTAL_LIMIT;
            service.counters()
                    .add(total ? HttpCounters.Event.HELD_REJECTED_TOTAL : HttpCounters.Event.HELD_REJECTED_PER_IP);
            HttpResponseStatus status =
                    total ? HttpResponseStatus.SERVICE_UNAVAILABLE : HttpResponseStatus.TOO_MANY_REQUESTS;
            reply(status)
                    .header(HttpHeaderNames.RETRY_AFTER, RETRY_ONE_SECOND)
                    .cache(CacheControl.noStore())
                    .send(status.code() + " " + status.reasonPhrase() + "\n");
            return false;
        }
        heldSlot = true;
        state = State.HELD;
        service.counters().heldDelta(1);
        service.counters().add(HttpCounters.Event.HELD);
        return true;
    }

    /** Runs {@code callback} on the event loop if the client goes away before the answer is complete. */
    public void onCancel(Runnable callback) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> onCancel(callback));
            return;
        }
        if (state == State.CANCELLED) {
            callback.run();
            return;
        }
        Runnable before = onCancel;
        onCancel = before == null
                ? callback
                : () -> {
                    before.run();
                    callback.run();
                };
    }

    /** Neither answered completely nor cancelled. */
    public boolean isOpen() {
        return state != State.DONE && state != State.CANCELLED;
    }

    public boolean isHeld() {
        return state == State.HELD;
    }

    // ---------------------------------------------------------------- server side

    /** Answers with {@code status} and closes the connection afterwards (bad or oversized requests). */
    void refuse(HttpResponseStatus status) {
        keepAlive = false;
        respond(status);
    }

    private void timedOut() {
        timeout = null;
        if (state != State.HELD) {
            return;
        }
        service.counters().add(HttpCounters.Event.HELD_TIMED_OUT);
        try {
            if (onTimeout != null) {
                onTimeout.accept(this);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "held-request timeout callback failed for " + uri(), e);
        }
        if (state == State.HELD) {
            respond(HttpResponseStatus.SERVICE_UNAVAILABLE);
        }
    }

    /** Sends a complete answer: {@code body} (released here) or {@code shared}, one of them. */
    void sendFull(HttpReply reply, ByteBuf body, SharedBody shared) {
        if (!loop.inEventLoop()) {
            handOff(reply, body, shared);
            return;
        }
        if (!mayAnswer(body)) {
            return;
        }
        HttpHeaders headers = responseHeaders(reply);
        CharSequence contentType =
                reply.contentType != null ? reply.contentType : shared != null ? shared.contentType() : null;
        boolean compressible = shared != null ? shared.compressible() : Gzip.isCompressible(contentType);
        long lastModifiedMs =
                shared != null && reply.lastModifiedMs < 0 ? shared.lastModifiedMs() : reply.lastModifiedMs;
        boolean gzip = gzipped(reply, compressible, shared != null ? shared.length() : body.readableBytes());
        AsciiString etag = reply.etag == null && shared != null && reply.status.code() == 200
                ? (gzip ? shared.gzippedEtag() : shared.etag())
                : reply.etag;
        if (compressible) {
            headers.add(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT_ENCODING);
        }
        if (reply.status.code() == 200 && notModified(etag, lastModifiedMs)) {
            sendNotModified(reply, headers, body, etag, lastModifiedMs);
            return;
        }
        ByteBuf content = shared != null ? sharedContent(shared, gzip) : ownedContent(body, gzip);
        contentHeaders(headers, contentType, gzip);
        commonHeaders(headers, reply, etag, lastModifiedMs);
        if (shared != null) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, gzip ? shared.gzippedContentLength() : shared.contentLength());
        } else {
            headers.setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        }
        if (head) {
            content.release();
            content = Unpooled.EMPTY_BUFFER;
        }
        writeFull(reply.status, headers, content);
    }

    /** Runs {@link #sendFull} on this exchange's loop, from another thread. */
    private void handOff(HttpReply reply, ByteBuf body, SharedBody shared) {
        // The caller's loop may release a shared body (a playlist version replaced) before this
        // loop runs the answer, so the hand-off holds a reference of its own.
        if (shared != null) {
            shared.retain();
        }
        loop.execute(() -> {
            try {
                sendFull(reply, body, shared);
            } finally {
                if (shared != null) {
                    shared.release();
                }
            }
        });
    }

    /** Whether this answer goes gzipped: the handler allows it, it is worth it, and the client accepts it. */
    private boolean gzipped(HttpReply reply, boolean compressible, int identityBytes) {
        return reply.gzip
                && compressible
                && identityBytes >= Gzip.MIN_BYTES
                && Gzip.accepted(request.headers().get(HttpHeaderNames.ACCEPT_ENCODING));
    }

    /** 304 for a conditional GET or HEAD whose validators match: no body. */
    private void sendNotModified(
            HttpReply reply, HttpHeaders headers, ByteBuf body, AsciiString etag, long lastModifiedMs) {
        if (body != null) {
            body.release();
        }
        service.counters().add(HttpCounters.Event.NOT_MODIFIED);
        commonHeaders(headers, reply, etag, lastModifiedMs);
        writeFull(HttpResponseStatus.NOT_MODIFIED, headers, Unpooled.EMPTY_BUFFER);
    }

    /** A retained view of the shared bytes, identity or gzipped (compressed once, by the body). */
    private static ByteBuf sharedContent(SharedBody shared, boolean gzip) {
        return gzip ? shared.retainedGzipped() : shared.retainedContent();
    }

    /** The handler's own body, compressed here for this one answer when gzipped. */
    private static ByteBuf ownedContent(ByteBuf body, boolean gzip) {
        if (!gzip) {
            return body;
        }
        ByteBuf compressed = Gzip.compress(body);
        body.release();
        return compressed;
    }

    /** Content-Encoding and Content-Type. */
    private void contentHeaders(HttpHeaders headers, CharSequence contentType, boolean gzip) {
        if (gzip) {
            headers.set(HttpHeaderNames.CONTENT_ENCODING, HttpHeaderValues.GZIP);
            service.counters().add(HttpCounters.Event.GZIPPED_RESPONSE);
        }
        if (contentType != null) {
            headers.set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
    }

    private void writeFull(HttpResponseStatus status, HttpHeaders headers, ByteBuf content) {
        boolean close = connectionHeader(headers);
        service.counters().request(kind, status.code());
        service.counters().bodyBytes(content.readableBytes());
        DefaultFullHttpResponse response =
                new DefaultFullHttpResponse(version(), status, content, headers, EmptyHttpHeaders.INSTANCE);
        finish(close, response);
        connection.returnResponseHeaders(headers);
    }

    /** The connection's response headers with the handler's own first. */
    private HttpHeaders responseHeaders(HttpReply reply) {
        HttpHeaders headers = connection.takeResponseHeaders();
        HttpHeaders own = reply.headersOrNull();
        if (own != null) {
            headers.add(own);
        }
        return headers;
    }

    BodyStream startStream(HttpReply reply) {
        StreamWriter writer = new StreamWriter();
        if (loop.inEventLoop()) {
            beginStream(reply, writer);
        } else {
            loop.execute(() -> beginStream(reply, writer));
        }
        return writer;
    }

    private void beginStream(HttpReply reply, StreamWriter writer) {
        if (!mayAnswer(null)) {
            writer.over = true;
            return;
        }
        HttpHeaders headers = responseHeaders(reply);
        if (reply.contentType != null) {
            headers.set(HttpHeaderNames.CONTENT_TYPE, reply.contentType);
        }
        commonHeaders(headers, reply, reply.etag, reply.lastModifiedMs);
        if (head) {
            writer.over = true;
            writeFull(reply.status, headers, Unpooled.EMPTY_BUFFER);
            return;
        }
        if (!owner.http2()) {
            if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
                keepAlive = false; // no chunked coding: the end of the body is the end of the connection
            } else {
                headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            }
        }
        writer.close = connectionHeader(headers);
        streamWriter = writer;
        if (state == State.HELD) {
            service.counters().add(HttpCounters.Event.HELD_RELEASED);
            cancelTimeout();
        }
        state = State.STREAMING;
        service.counters().request(kind, reply.status.code());
        service.counters().add(HttpCounters.Event.STREAMED_RESPONSE);
        Channel channel = owner.channel();
        channel.writeAndFlush(new DefaultHttpResponse(version(), reply.status, headers), channel.voidPromise());
        connection.returnResponseHeaders(headers);
    }

    /** Date, Cache-Control, ETag, Last-Modified and CORS. */
    private void commonHeaders(HttpHeaders headers, HttpReply reply, AsciiString etag, long lastModifiedMs) {
        headers.set(HttpHeaderNames.DATE, service.dates().now());
        if (reply.cache != null) {
            headers.set(HttpHeaderNames.CACHE_CONTROL, reply.cache.value());
        }
        if (etag != null) {
            headers.set(HttpHeaderNames.ETAG, etag);
        }
        if (lastModifiedMs >= 0) {
            headers.set(HttpHeaderNames.LAST_MODIFIED, HttpDates.format(lastModifiedMs));
        }
        CorsPolicy cors = service.routes().cors();
        if (cors != null) {
            cors.applyTo(headers, request.headers().get(HttpHeaderNames.ORIGIN));
        }
    }

    /** Sets {@code Connection} on HTTP/1.x; returns whether the connection closes after this answer. */
    private boolean connectionHeader(HttpHeaders headers) {
        if (owner.http2()) {
            return false;
        }
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            return true;
        }
        if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        return false;
    }

    private HttpVersion version() {
        return owner.http2() ? HttpVersion.HTTP_1_1 : request.protocolVersion();
    }

    private boolean notModified(AsciiString etag, long lastModifiedMs) {
        HttpMethod method = request.method();
        if (!method.equals(HttpMethod.GET) && !head) {
            return false;
        }
        String ifNoneMatch = request.headers().get(HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            return etag != null && EntityTags.matches(ifNoneMatch, etag);
        }
        if (lastModifiedMs < 0) {
            return false;
        }
        long since = HttpDates.parse(request.headers().get(HttpHeaderNames.IF_MODIFIED_SINCE));
        return since >= 0 && lastModifiedMs / 1000 <= since / 1000;
    }

    /** Whether an answer may be sent now; releases {@code body} when not. */
    private boolean mayAnswer(ByteBuf body) {
        if (state == State.HANDLING || state == State.HELD) {
            return true;
        }
        if (body != null) {
            body.release();
        }
        if (state == State.CANCELLED) {
            return false;
        }
        throw new IllegalStateException("this exchange (" + uri() + ") was already answered");
    }

    /**
     * The answer is complete: the exchange is done and its held slot free before the last bytes are
     * written (a client that has them sees the counters settled), then the connection moves on.
     *
     * @param lastMessage what ends the answer on the wire, or null when nothing is left to write
     */
    private void finish(boolean close, Object lastMessage) {
        if (state == State.HELD) {
            service.counters().add(HttpCounters.Event.HELD_RELEASED);
        }
        state = State.DONE;
        cancelTimeout();
        releaseHeldSlot();
        Channel channel = owner.channel();
        ChannelFuture written = null;
        if (lastMessage != null) {
            // Only a closing answer waits for its write: otherwise the void promise spares a
            // promise, and the encoder's promise combiner, per response (a failed write reaches
            // exceptionCaught, which closes).
            written = close
                    ? channel.writeAndFlush(lastMessage)
                    : channel.writeAndFlush(lastMessage, channel.voidPromise());
        }
        request.release();
        if (close) {
            (written == null ? channel.newSucceededFuture() : written).addListener(ChannelFutureListener.CLOSE);
        }
        owner.exchangeDone(this, close);
    }

    /** The client went away. */
    void cancel() {
        if (state == State.DONE || state == State.CANCELLED) {
            return;
        }
        state = State.CANCELLED;
        if (streamWriter != null) {
            streamWriter.over = true;
        }
        cancelTimeout();
        if (heldSlot) {
            service.counters().add(HttpCounters.Event.HELD_CANCELLED);
        }
        releaseHeldSlot();
        request.release();
        Runnable callback = onCancel;
        onCancel = null;
        if (callback != null) {
            try {
                callback.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "cancel callback failed for " + uri(), e);
            }
        }
    }

    /** Whether the handler returned without answering, holding or streaming. */
    boolean unanswered() {
        return state == State.HANDLING;
    }

    private void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }

    private void releaseHeldSlot() {
        if (heldSlot) {
            heldSlot = false;
            service.heldLimiter().release(connection.ip());
            service.counters().heldDelta(-1);
        }
    }

    private void checkInLoop(String what) {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException(what + " must be called on the exchange's event loop (in the handler)");
        }
    }

    /** The streamed body of this exchange. */
    private final class StreamWriter implements BodyStream {
        /** Set once the body ended, was aborted, or the exchange was cancelled; read from any thread. */
        private volatile boolean over;

        private boolean close;

        @Override
        public boolean write(ByteBuf chunk) {
            if (!loop.inEventLoop()) {
                loop.execute(() -> write(chunk));
                return !over;
            }
            if (over || state != State.STREAMING) {
                over = true;
                chunk.release();
                return false;
            }
            int bytes = chunk.readableBytes();
            if (bytes == 0) {
                chunk.release();
                return true;
            }
            service.counters().bodyBytes(bytes);
            Channel channel = owner.channel();
            channel.writeAndFlush(new DefaultHttpContent(chunk), channel.voidPromise());
            return true;
        }

        @Override
        public boolean write(SharedBody chunk) {
            return write(chunk.retainedContent());
        }

        @Override
        public void end() {
            if (!loop.inEventLoop()) {
                loop.execute(this::end);
                return;
            }
            if (over || state != State.STREAMING) {
                over = true;
                return;
            }
            over = true;
            finish(close, LastHttpContent.EMPTY_LAST_CONTENT);
        }

        @Override
        public void end(ByteBuf last) {
            if (!loop.inEventLoop()) {
                loop.execute(() -> end(last));
                return;
            }
            if (over || state != State.STREAMING) {
                over = true;
                last.release();
                return;
            }
            over = true;
            int bytes = last.readableBytes();
            if (bytes == 0) {
                last.release();
                finish(close, LastHttpContent.EMPTY_LAST_CONTENT);
                return;
            }
            service.counters().bodyBytes(bytes);
            finish(close, new DefaultLastHttpContent(last));
        }

        @Override
        public void abort() {
            if (!loop.inEventLoop()) {
                loop.execute(this::abort);
                return;
            }
            if (over || state != State.STREAMING) {
                over = true;
                return;
            }
            over = true;
            // Closing an HTTP/2 stream channel resets the stream; on HTTP/1.1 only closing the
            // connection tells the client the body is cut.
            Channel channel = owner.channel();
            finish(false, null);
            channel.close();
        }

        @Override
        public boolean isOpen() {
            return !over;
        }
    }
}
