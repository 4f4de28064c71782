package io.tern.netty.http;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.List;

/**
 * Routes one complete request: bad and oversized requests, upgrades, the server's own answers
 * (OPTIONS, 405, 426, 404), then the route's handler, guarded so that a throwing handler or one that
 * returns without answering still gets its request a 500.
 */
final class RequestDispatch {
    private static final System.Logger LOG = System.getLogger("tern.http");

    private RequestDispatch() {}

    static void dispatch(HttpExchangeHandler owner, FullHttpRequest request) {
        HttpService service = owner.service();
        HttpRoutes routes = service.routes();
        String uri = request.uri();
        String path = pathOf(uri);
        DecoderResult decoded = request.decoderResult();
        if (decoded.isFailure()
                || path == null
                || uri.length() > service.limits().maxUriBytes()) {
            HttpResponseStatus status = decoded.isFailure()
                    ? statusFor(decoded.cause())
                    : path == null ? HttpResponseStatus.BAD_REQUEST : HttpResponseStatus.REQUEST_URI_TOO_LONG;
            owner.open(request, path == null ? "/" : path, false).refuse(status);
            return;
        }
        if (!owner.http2() && wantsUpgrade(request)) {
            for (HttpRoutes.UpgradeRoute route : routes.upgrades()) {
                String[] captures = route.pattern().match(path);
                if (captures != null && offers(request.headers().get(HttpHeaderNames.UPGRADE), route.protocol())) {
                    upgrade(owner, request, path, route, captures);
                    return;
                }
            }
        }
        boolean keepAlive = owner.http2() || HttpUtil.isKeepAlive(request);
        HttpExchange exchange = owner.open(request, path, keepAlive);
        HttpMethod method = request.method();
        HttpRoutes.Route pathMatch = null;
        String[] pathCaptures = null;
        List<HttpRoutes.Route> candidates = routes.routes();
        for (int i = 0; i < candidates.size(); i++) { // indexed: no iterator per request
            HttpRoutes.Route route = candidates.get(i);
            String[] captures = route.pattern().match(path);
            if (captures == null) {
                continue;
            }
            if (route.allows(method)) {
                exchange.route(route.kind(), route.pattern().names(), captures);
                invoke(route.handler(), exchange);
                return;
            }
            if (pathMatch == null) {
                pathMatch = route;
                pathCaptures = captures;
            }
        }
        if (pathMatch != null) {
            exchange.route(pathMatch.kind(), pathMatch.pattern().names(), pathCaptures);
            if (method.equals(HttpMethod.OPTIONS)) {
                options(exchange, routes.cors(), pathMatch);
            } else {
                exchange.reply(HttpResponseStatus.METHOD_NOT_ALLOWED)
                        .header(HttpHeaderNames.ALLOW, pathMatch.allow())
                        .cache(CacheControl.noStore())
                        .send("405 Method Not Allowed\n");
            }
            return;
        }
        for (HttpRoutes.UpgradeRoute route : routes.upgrades()) {
            if (route.pattern().match(path) != null) {
                exchange.route(
                        route.kind(), route.pattern().names(), route.pattern().match(path));
                exchange.reply(HttpResponseStatus.UPGRADE_REQUIRED)
                        .header(HttpHeaderNames.UPGRADE, route.protocol())
                        .cache(CacheControl.noStore())
                        .send("426 Upgrade Required: " + route.protocol() + "\n");
                return;
            }
        }
        if (routes.notFound() != null) {
            invoke(routes.notFound(), exchange);
        } else {
            exchange.respond(HttpResponseStatus.NOT_FOUND);
        }
    }

    private static void upgrade(
            HttpExchangeHandler owner,
            FullHttpRequest request,
            String path,
            HttpRoutes.UpgradeRoute route,
            String[] captures) {
        HttpService service = owner.service();
        HttpResponseStatus refusal;
        try {
            refusal = route.handler().check(request);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "upgrade check failed for " + request.uri(), e);
            refusal = HttpResponseStatus.INTERNAL_SERVER_ERROR;
        }
        if (refusal != null) {
            HttpExchange exchange = owner.open(request, path, HttpUtil.isKeepAlive(request));
            exchange.route(route.kind(), route.pattern().names(), captures);
            exchange.respond(refusal);
            return;
        }
        service.counters().add(HttpCounters.Event.PROTOCOL_UPGRADE);
        service.counters().request(service.counters().kindIndex(route.kind()), 101);
        owner.upgrade(route.handler(), request);
    }

    /** The preflight answer from the CORS policy, or 204 with {@code Allow}. */
    private static void options(HttpExchange exchange, CorsPolicy cors, HttpRoutes.Route route) {
        HttpReply reply = exchange.reply(HttpResponseStatus.NO_CONTENT).header(HttpHeaderNames.ALLOW, route.allow());
        String origin = exchange.header(HttpHeaderNames.ORIGIN);
        if (cors != null && origin != null && exchange.header(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD) != null) {
            cors.applyPreflight(reply.headers(), origin, route.allow());
        }
        reply.send();
    }

    private static void invoke(HttpHandler handler, HttpExchange exchange) {
        try {
            handler.handle(exchange);
        } catch (Exception | Error e) {
            exchange.service().counters().add(HttpCounters.Event.HANDLER_ERROR);
            LOG.log(System.Logger.Level.WARNING, "HTTP handler failed for " + exchange.uri(), e);
            if (exchange.unanswered()) {
                exchange.respond(HttpResponseStatus.INTERNAL_SERVER_ERROR);
            }
            return;
        }
        if (exchange.unanswered()) {
            exchange.service().counters().add(HttpCounters.Event.HANDLER_ERROR);
            LOG.log(
                    System.Logger.Level.WARNING,
                    "HTTP handler returned without answering, holding or streaming " + exchange.uri());
            exchange.respond(HttpResponseStatus.INTERNAL_SERVER_ERROR);
        }
    }

    /** {@code Upgrade} with {@code Connection: upgrade}. */
    private static boolean wantsUpgrade(FullHttpRequest request) {
        return request.headers().contains(HttpHeaderNames.UPGRADE)
                && request.headers().containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true);
    }

    /** Whether the comma-separated {@code Upgrade} header offers {@code protocol}. */
    private static boolean offers(String upgrade, String protocol) {
        for (String offered : upgrade.split(",")) {
            String name = offered.trim();
            int slash = name.indexOf('/');
            if ((slash < 0 ? name : name.substring(0, slash)).equalsIgnoreCase(protocol)) {
                return true;
            }
        }
        return false;
    }

    /** The path of an origin-form or absolute-form target, or null when it is neither. */
    static String pathOf(String uri) {
        int start = 0;
        if (!uri.startsWith("/")) {
            int scheme = uri.indexOf("://");
            if (scheme <= 0) {
                return null;
            }
            start = uri.indexOf('/', scheme + 3);
            if (start < 0) {
                return "/";
            }
        }
        int end = uri.length();
        for (int i = start; i < end; i++) {
            char c = uri.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        return start == 0 && end == uri.length() ? uri : uri.substring(start, end);
    }

    private static HttpResponseStatus statusFor(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return HttpResponseStatus.REQUEST_URI_TOO_LONG;
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        }
        if (cause instanceof TooLongFrameException) {
            return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
        }
        return HttpResponseStatus.BAD_REQUEST;
    }
}
