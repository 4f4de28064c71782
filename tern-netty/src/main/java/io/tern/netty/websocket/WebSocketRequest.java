package io.tern.netty.websocket;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.tern.websocket.handshake.HandshakeRequest;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The HTTP request that opened (or asked to open) a WebSocket connection, as Netty's codec decoded
 * it, with where it came from. Kept for the connection's life: NIP-42 wants the URL the client
 * connected to, NIP-11 the {@code Accept} header.
 */
public final class WebSocketRequest implements HandshakeRequest {
    private final String method;
    private final String target;
    private final String version;
    private final HttpHeaders headers;
    private final InetSocketAddress remoteAddress;
    private final boolean secure;

    WebSocketRequest(HttpRequest request, InetSocketAddress remoteAddress, boolean secure) {
        this.method = request.method().name();
        this.target = request.uri();
        this.version = request.protocolVersion().text();
        this.headers = request.headers();
        this.remoteAddress = remoteAddress;
        this.secure = secure;
    }

    @Override
    public String method() {
        return method;
    }

    /** The request-target as sent, e.g. "/nostr?x=1". */
    @Override
    public String target() {
        return target;
    }

    /** The target without its query. */
    public String path() {
        int query = target.indexOf('?');
        return query < 0 ? target : target.substring(0, query);
    }

    @Override
    public String version() {
        return version;
    }

    /** The Host header, or null. */
    public String host() {
        return headers.get(HttpHeaderNames.HOST);
    }

    @Override
    public String field(String name) {
        List<String> values = headers.getAll(name);
        if (values.isEmpty()) {
            return null;
        }
        return values.size() == 1 ? values.get(0) : String.join(", ", values);
    }

    /** Every header, as decoded; do not modify. */
    public HttpHeaders headers() {
        return headers;
    }

    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** Whether the connection runs over TLS in this process. */
    public boolean secure() {
        return secure;
    }

    /** The URL the client asked for, built from the Host header: "ws://host/path" or "wss://…". */
    public String url() {
        return (secure ? "wss://" : "ws://") + host() + target;
    }
}
