package io.tern.server.origin.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.hls.packager.ObjectNames;
import io.tern.media.TrackType;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.CorsPolicy;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.HttpRoutes;
import io.tern.server.origin.metrics.OriginCounters.Served;
import io.tern.server.origin.registry.StreamNames;
import io.tern.server.origin.registry.StreamRegistry;
import io.tern.server.origin.stream.LiveStream;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The origin's HTTP surface: a stream published as {@code live/NAME} plays at
 * {@code /live/NAME/index.m3u8} (the multivariant playlist), and everything else of it lives under
 * {@code /live/NAME/INSTANCE/} (media playlists, init segments, parts, segments; see {@link
 * ObjectNames}). Each request hops to its stream's event loop, where the packager answers it; when
 * that loop is another one the request is deferred first, holding no thread.
 *
 * <p>Request kinds, for the counters: {@code multivariant}, {@code playlist}, {@code
 * blocking_playlist}, {@code init}, {@code part}, {@code hinted_part}, {@code segment}.
 */
public final class HlsRoutes {
    private HlsRoutes() {}

    /** What a deferred request does once it is on its stream's loop. */
    @FunctionalInterface
    private interface OnStreamLoop {
        void run(LiveStream stream);
    }

    public static HttpRoutes build(StreamRegistry registry) {
        return addTo(HttpRoutes.builder(), registry)
                .cors(CorsPolicy.anyOrigin())
                .build();
    }

    /** Adds the stream routes to {@code routes} (which other surfaces share: the API, the watch page). */
    public static HttpRoutes.Builder addTo(HttpRoutes.Builder routes, StreamRegistry registry) {
        String[] kinds = Arrays.stream(Served.values()).map(Served::label).toArray(String[]::new);
        return routes.get("/" + StreamNames.APP + "/{name}/index.m3u8", Served.MULTIVARIANT.label(), exchange -> {
                    LiveStream stream = registry.lookup(exchange.pathParam("name"));
                    if (stream == null) {
                        notFound(exchange, "no stream " + StreamNames.APP + "/" + exchange.pathParam("name"));
                        return;
                    }
                    if (onItsLoop(stream)) {
                        stream.multivariant(exchange, false);
                    } else {
                        hop(exchange, stream, s -> s.multivariant(exchange, true));
                    }
                })
                .get("/" + StreamNames.APP + "/{name}/{instance}/{file}", Served.SEGMENT.label(), exchange -> {
                    String name = exchange.pathParam("name");
                    LiveStream stream = registry.lookup(name);
                    if (stream == null || !stream.instanceId().equals(exchange.pathParam("instance"))) {
                        notFound(
                                exchange,
                                "no stream " + StreamNames.APP + "/" + name + " instance "
                                        + exchange.pathParam("instance"));
                        return;
                    }
                    String file = exchange.pathParam("file");
                    ObjectNames.Parsed parsed = ObjectNames.parse(file);
                    if (parsed == null) {
                        notFound(exchange, "no " + file + " in a stream");
                        return;
                    }
                    if (parsed.kind() == ObjectNames.Kind.PLAYLIST) {
                        String query = rawQuery(exchange.uri());
                        exchange.kind(
                                query.contains("_HLS_msn")
                                        ? Served.BLOCKING_PLAYLIST.label()
                                        : Served.PLAYLIST.label());
                        TrackType track = parsed.track();
                        if (onItsLoop(stream)) {
                            stream.mediaPlaylist(exchange, track, query, false);
                        } else {
                            hop(exchange, stream, s -> s.mediaPlaylist(exchange, track, query, true));
                        }
                    } else {
                        exchange.kind(
                                switch (parsed.kind()) {
                                    case INIT -> Served.INIT.label();
                                    case PART -> Served.PART.label();
                                    default -> Served.SEGMENT.label();
                                });
                        if (onItsLoop(stream)) {
                            stream.object(exchange, file, false);
                        } else {
                            hop(exchange, stream, s -> s.object(exchange, file, true));
                        }
                    }
                })
                .kinds(kinds);
    }

    /**
     * Whether the request is on its stream's loop, where it is answered directly: tested before any
     * lambda is made, so the common case allocates none per request.
     */
    private static boolean onItsLoop(LiveStream stream) {
        return stream.eventLoop().inEventLoop();
    }

    /** Holds the request, then hops to the stream's loop (the handler must answer, hold or stream before it returns). */
    private static void hop(HttpExchange exchange, LiveStream stream, OnStreamLoop work) {
        if (exchange.defer(stream.holdTimeoutMs(), TimeUnit.MILLISECONDS, null)) {
            stream.eventLoop().execute(() -> work.run(stream));
        }
    }

    private static void notFound(HttpExchange exchange, String reason) {
        exchange.reply(HttpResponseStatus.NOT_FOUND)
                .cache(CacheControl.noStore())
                .send("404 " + reason + "\n");
    }

    /** What follows {@code ?} in the request target, undecoded; "" without one. */
    static String rawQuery(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? "" : uri.substring(q + 1);
    }
}
