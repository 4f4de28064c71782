package io.tern.netty.nostr;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.info.NostrRelayInformation;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * What plain HTTP on the relay's URL gets: the NIP-11 document for {@code Accept:
 * application/nostr+json}, a CORS preflight answer for OPTIONS, and otherwise a line of text
 * (what a browser shows). Every answer carries NIP-11's CORS headers.
 */
final class NostrRelayInformationResponses {
    static final String PLAIN_TEXT =
            "This is a Nostr relay (Tern). Connect with a Nostr client over WebSocket; the NIP-11 document"
                    + " is served for Accept: application/nostr+json.\n";

    private final byte[] document;
    private final byte[] text = PLAIN_TEXT.getBytes(StandardCharsets.UTF_8);

    NostrRelayInformationResponses(NostrConfig config, String version) {
        this.document = NostrRelayInformation.document(config, version);
    }

    byte[] document() {
        return document;
    }

    /** Whether an {@code Accept} header asks for the NIP-11 document. */
    static boolean wantsDocument(String accept) {
        return accept != null && accept.toLowerCase(Locale.ROOT).contains(NostrRelayInformation.MEDIA_TYPE);
    }

    /** The answer on the relay's own port, where the connection closes after it. */
    FullHttpResponse respond(String method, String accept) {
        FullHttpResponse response;
        if (method.equals("OPTIONS")) {
            response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT, Unpooled.EMPTY_BUFFER);
        } else if (!method.equals("GET") && !method.equals("HEAD")) {
            response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1, HttpResponseStatus.METHOD_NOT_ALLOWED, Unpooled.EMPTY_BUFFER);
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD, OPTIONS");
        } else {
            boolean json = wantsDocument(accept);
            byte[] body = json ? document : text;
            response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1,
                    HttpResponseStatus.OK,
                    method.equals("HEAD") ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
            response.headers()
                    .set(
                            HttpHeaderNames.CONTENT_TYPE,
                            json ? NostrRelayInformation.MEDIA_TYPE : "text/plain; charset=utf-8")
                    .set(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT);
        }
        cors(response.headers());
        return response;
    }

    static void cors(HttpHeaders headers) {
        for (Map.Entry<String, String> header : NostrRelayInformation.CORS_HEADERS.entrySet()) {
            headers.set(header.getKey(), header.getValue());
        }
    }
}
