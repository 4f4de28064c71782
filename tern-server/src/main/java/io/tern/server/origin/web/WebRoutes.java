package io.tern.server.origin.web;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.SharedBody;
import io.tern.server.origin.registry.StreamNames;
import io.tern.server.origin.registry.StreamRegistry;
import io.tern.server.origin.stream.LiveStream;
import java.util.List;
import java.util.function.Predicate;

/**
 * The pages a person opens: {@code /} lists the live streams, {@code /live/NAME/} plays one
 * ({@link WebAssets}: one static page for every stream, which finds its playlist from its own
 * URL, so it can be opened before the publisher starts and begins playing when it does), and
 * {@code /_tern/} serves the page's script, style and hls.js.
 */
public final class WebRoutes {
    static final String KIND = "page";
    /** Assets change only with the build; browsers revalidate with the ETag after this. */
    private static final CacheControl ASSET_CACHE = CacheControl.maxAge(300);

    private final StreamRegistry registry;
    private final WebAssets assets;
    private final Predicate<String> swarm;

    public WebRoutes(StreamRegistry registry, WebAssets assets) {
        this(registry, assets, name -> false);
    }

    /** @param swarm whether stream NAME has the swarm on: its watch page then loads the swarm library */
    public WebRoutes(StreamRegistry registry, WebAssets assets, Predicate<String> swarm) {
        this.registry = registry;
        this.assets = assets;
        this.swarm = swarm;
    }

    /** The watch page's path of stream {@code name}. */
    public static String watchPath(String name) {
        return "/" + StreamNames.APP + "/" + name + "/";
    }

    public void addTo(HttpRoutes.Builder routes) {
        routes.get("/", KIND, this::index)
                .get("/" + StreamNames.APP + "/{name}/", KIND, this::watch)
                .get("/" + StreamNames.APP + "/{name}", KIND, WebRoutes::toWatchPage)
                .get("/_tern/{file}", KIND, this::asset)
                .get("/_tern/" + SwarmLibrary.DIRECTORY + "/{path...}", KIND, this::swarmAsset);
    }

    private void index(HttpExchange exchange) {
        List<String> live = registry.streams().stream()
                .filter(s -> !s.ended())
                .map(LiveStream::name)
                .sorted()
                .toList();
        exchange.reply(HttpResponseStatus.OK)
                .contentType("text/html; charset=utf-8")
                .cache(CacheControl.noStore())
                .send(IndexPage.render(live));
    }

    private void watch(HttpExchange exchange) {
        String name = exchange.pathParam("name");
        if (!StreamNames.valid(name)) {
            exchange.reply(HttpResponseStatus.NOT_FOUND)
                    .cache(CacheControl.noStore())
                    .send("404 '" + name + "' is not a stream name: " + StreamNames.RULE + "\n");
            return;
        }
        exchange.respond(swarm.test(name) ? assets.swarmWatchPage() : assets.watchPage(), ASSET_CACHE);
    }

    private static void toWatchPage(HttpExchange exchange) {
        String name = exchange.pathParam("name");
        if (!StreamNames.valid(name)) {
            exchange.respond(HttpResponseStatus.NOT_FOUND);
            return;
        }
        exchange.reply(HttpResponseStatus.MOVED_PERMANENTLY)
                .header(HttpHeaderNames.LOCATION, watchPath(name))
                .cache(CacheControl.noStore())
                .send();
    }

    private void swarmAsset(HttpExchange exchange) {
        SharedBody body = assets.swarmFile(exchange.pathParam("path"));
        if (body == null) {
            exchange.respond(HttpResponseStatus.NOT_FOUND);
            return;
        }
        exchange.respond(body, ASSET_CACHE);
    }

    private void asset(HttpExchange exchange) {
        SharedBody body = assets.file(exchange.pathParam("file"));
        if (body == null) {
            exchange.respond(HttpResponseStatus.NOT_FOUND);
            return;
        }
        exchange.respond(body, ASSET_CACHE);
    }
}
