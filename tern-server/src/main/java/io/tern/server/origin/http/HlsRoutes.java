package io.tern.server.origin.http;

import io.tern.hls.packager.ObjectNames;
import io.tern.hls.playlist.PlaylistRequest;
import io.tern.media.TrackType;
import io.tern.netty.hls.Replies;
import io.tern.netty.hls.Served;
import io.tern.netty.http.CorsPolicy;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.HttpRoutes;
import io.tern.server.origin.registry.StreamNames;
import io.tern.server.origin.registry.StreamRegistry;
import io.tern.server.origin.stream.LiveStream;
import java.util.Arrays;

/**
 * The origin's HTTP surface: a stream published as {@code live/NAME} plays at
 * {@code /live/NAME/index.m3u8} (the multivariant playlist), and everything else of it lives under
 * {@code /live/NAME/INSTANCE/} (media playlists, init segments, parts, segments; see {@link
 * ObjectNames}). Each request hops to its stream's event loop, where the packager answers it; when
 * that loop is another one the request is held first, holding no thread and no timer (the stream
 * answers every request it is handed, and the packager's deadline is the only hold timeout).
 *
 * <p>Request kinds, for the counters: {@code multivariant}, {@code playlist}, {@code
 * blocking_playlist}, {@code init}, {@code part}, {@code hinted_part}, {@code segment}.
 */
public final class HlsRoutes {
    private HlsRoutes() {}

    /** What a request asks of its stream. */
    private enum Work {
        MULTIVARIANT,
        MEDIA_PLAYLIST,
        OBJECT
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
                        Replies.error(exchange, 404, "no stream " + StreamNames.APP + "/" + exchange.pathParam("name"));
                        return;
                    }
                    serve(exchange, stream, Work.MULTIVARIANT, null, null);
                })
                .get("/" + StreamNames.APP + "/{name}/{instance}/{file}", Served.SEGMENT.label(), exchange -> {
                    String name = exchange.pathParam("name");
                    LiveStream stream = registry.lookup(name);
                    if (stream == null || !stream.instanceId().equals(exchange.pathParam("instance"))) {
                        Replies.error(
                                exchange,
                                404,
                                "no stream " + StreamNames.APP + "/" + name + " instance "
                                        + exchange.pathParam("instance"));
                        return;
                    }
                    String file = exchange.pathParam("file");
                    ObjectNames.Parsed parsed = ObjectNames.parse(file);
                    if (parsed == null) {
                        Replies.error(exchange, 404, "no " + file + " in a stream");
                        return;
                    }
                    if (parsed.kind() == ObjectNames.Kind.PLAYLIST) {
                        PlaylistRequest.Parsed request = PlaylistRequest.parse(rawQuery(exchange.uri()));
                        if (!request.ok()) {
                            Replies.error(exchange, 400, request.error());
                            return;
                        }
                        exchange.kind(
                                request.request().blocking()
                                        ? Served.BLOCKING_PLAYLIST.label()
                                        : Served.PLAYLIST.label());
                        serve(exchange, stream, Work.MEDIA_PLAYLIST, parsed.track(), request.request());
                    } else {
                        exchange.kind(
                                switch (parsed.kind()) {
                                    case INIT -> Served.INIT.label();
                                    case PART -> Served.PART.label();
                                    default -> Served.SEGMENT.label();
                                });
                        serve(exchange, stream, Work.OBJECT, null, file);
                    }
                })
                .kinds(kinds);
    }

    /**
     * Answers on the stream's loop: directly when the request is already there (no allocation),
     * otherwise held, then carried there as one task, the only object a hop makes (the handler
     * must answer, hold or stream before it returns).
     *
     * @param track the media playlist's track ({@link Work#MEDIA_PLAYLIST})
     * @param what the playlist's delivery directives ({@link PlaylistRequest}, {@link
     *     Work#MEDIA_PLAYLIST}) or the object's file name ({@link Work#OBJECT})
     */
    private static void serve(HttpExchange exchange, LiveStream stream, Work work, TrackType track, Object what) {
        if (stream.eventLoop().inEventLoop()) {
            run(exchange, stream, work, track, what, false);
        } else if (exchange.hold()) {
            stream.eventLoop().execute(new OnStreamLoop(exchange, stream, work, track, what));
        }
    }

    /** {@code deferred}: the exchange was already deferred on its own loop before it hopped here. */
    private static void run(
            HttpExchange exchange, LiveStream stream, Work work, TrackType track, Object what, boolean deferred) {
        switch (work) {
            case MULTIVARIANT -> stream.multivariant(exchange, deferred);
            case MEDIA_PLAYLIST -> stream.mediaPlaylist(exchange, track, (PlaylistRequest) what, deferred);
            case OBJECT -> stream.object(exchange, (String) what, deferred);
        }
    }

    /** A request carried to its stream's loop. */
    private record OnStreamLoop(HttpExchange exchange, LiveStream stream, Work work, TrackType track, Object what)
            implements Runnable {
        @Override
        public void run() {
            HlsRoutes.run(exchange, stream, work, track, what, true);
        }
    }

    /** What follows {@code ?} in the request target, undecoded; "" without one. */
    static String rawQuery(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? "" : uri.substring(q + 1);
    }
}
