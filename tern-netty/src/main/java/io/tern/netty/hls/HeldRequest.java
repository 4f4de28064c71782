package io.tern.netty.hls;

import io.tern.netty.http.BodyStream;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;

/**
 * A request the packager holds under a ticket: a blocking playlist reload, a multivariant playlist
 * asked for before there is media, or the preload-hinted part (streamed chunk by chunk, or sent
 * whole when complete). Confined to the stream's event loop.
 */
final class HeldRequest {
    final HttpExchange exchange;
    final Served kind;
    /** How its answer may be cached: playlists, and a part sent whole once complete. */
    final CacheControl cache;
    /** For a streamed part: its body, and how many chunks went out. */
    final BodyStream body;

    int chunksSent;

    HeldRequest(HttpExchange exchange, Served kind, CacheControl cache, BodyStream body, int chunksSent) {
        this.exchange = exchange;
        this.kind = kind;
        this.cache = cache;
        this.body = body;
        this.chunksSent = chunksSent;
    }
}
