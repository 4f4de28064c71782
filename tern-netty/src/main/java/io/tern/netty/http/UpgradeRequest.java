package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpRequest;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What an {@link UpgradeHandler} receives when it takes over a connection.
 *
 * @param channel  the connection; its pipeline holds TLS (if any) and nothing of HTTP
 * @param request  the upgrade request's line and headers (its body, if any, was discarded)
 * @param remote   the client's address
 * @param secure   whether the connection is TLS
 * @param leftover bytes the client sent after the request, already read; the handler owns and
 *                 must release them (often empty)
 */
public record UpgradeRequest(
        Channel channel, HttpRequest request, InetSocketAddress remote, boolean secure, ByteBuf leftover) {

    /**
     * The request head re-encoded as HTTP/1.1 bytes ({@code GET /nostr HTTP/1.1}, the headers in
     * the order received, a blank line), for an engine that parses its own handshake. The caller
     * owns the buffer.
     */
    public ByteBuf encodedHead() {
        StringBuilder head = new StringBuilder(256);
        head.append(request.method().name())
                .append(' ')
                .append(request.uri())
                .append(' ')
                .append(request.protocolVersion().text())
                .append("\r\n");
        for (Map.Entry<String, String> header : request.headers()) {
            head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
        }
        head.append("\r\n");
        return ByteBufUtil.encodeString(channel.alloc(), java.nio.CharBuffer.wrap(head), StandardCharsets.ISO_8859_1);
    }

    /** An empty leftover, for tests and for handlers that consumed it. */
    static ByteBuf none() {
        return Unpooled.EMPTY_BUFFER;
    }
}
