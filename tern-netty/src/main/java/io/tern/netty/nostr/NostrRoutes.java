package io.tern.netty.nostr;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.HttpReply;
import io.tern.netty.http.HttpRoutes;
import io.tern.nostr.info.NostrRelayInformation;
import java.util.Map;
import java.util.Set;

/**
 * Mounts a {@link NostrRelay} on Tern's HTTP server, beside the origin's routes: WebSocket
 * upgrades on {@code path} become relay clients (the relay's endpoint is the route's upgrade
 * handler), and plain GET, HEAD and OPTIONS there get the NIP-11 document (for {@code Accept:
 * application/nostr+json}), a CORS preflight answer, or a line of text, all with NIP-11's CORS
 * headers.
 *
 * <pre>{@code
 * HttpRoutes.Builder routes = HttpRoutes.builder().get("/live/{stream}/{file}", "hls", hls);
 * NostrRoutes.mount(routes, "/nostr", relay);
 * }</pre>
 *
 * <p>Connections land on the HTTP server's loops; with more than one, those not on the relay's loop
 * hand their messages over (see {@link NostrRelay}). Start the relay on one of the HTTP server's
 * loops ({@code HttpServer.Builder.eventLoops}) to keep its connections there.
 */
public final class NostrRoutes {
    /** The request kind of the relay's requests in the HTTP counters. */
    public static final String KIND = "nostr";

    private NostrRoutes() {}

    public static HttpRoutes.Builder mount(HttpRoutes.Builder routes, String path, NostrRelay relay) {
        NostrRelayInformationResponses information = relay.information();
        return routes.upgrade(path, "websocket", KIND, relay.endpoint())
                .route(
                        Set.of(HttpMethod.GET, HttpMethod.OPTIONS),
                        path,
                        KIND,
                        exchange -> answer(exchange, information));
    }

    private static void answer(HttpExchange exchange, NostrRelayInformationResponses information) {
        if (exchange.method().equals(HttpMethod.OPTIONS)) {
            cors(exchange.reply(HttpResponseStatus.NO_CONTENT)).send();
            return;
        }
        boolean json = NostrRelayInformationResponses.wantsDocument(exchange.header(HttpHeaderNames.ACCEPT));
        HttpReply reply = cors(exchange.reply(HttpResponseStatus.OK))
                .contentType(json ? NostrRelayInformation.MEDIA_TYPE : "text/plain; charset=utf-8")
                .header(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT)
                .cache(CacheControl.noStore());
        if (json) {
            reply.send(Unpooled.wrappedBuffer(information.document()));
        } else {
            reply.send(NostrRelayInformationResponses.PLAIN_TEXT);
        }
    }

    private static HttpReply cors(HttpReply reply) {
        for (Map.Entry<String, String> header : NostrRelayInformation.CORS_HEADERS.entrySet()) {
            reply.header(header.getKey(), header.getValue());
        }
        return reply;
    }
}
