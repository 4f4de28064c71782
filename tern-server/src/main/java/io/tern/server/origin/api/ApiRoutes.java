package io.tern.server.origin.api;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.AsciiString;
import io.tern.hls.record.RecordingFile;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.HttpHandler;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.SharedBody;
import io.tern.server.origin.api.ApiJson.RecordingEntry;
import io.tern.server.origin.record.RecordingStore;
import io.tern.server.origin.registry.StreamNames;
import io.tern.server.origin.registry.StreamRegistry;
import io.tern.server.origin.registry.StreamSnapshot;
import io.tern.server.origin.stream.LiveStream;
import io.tern.server.origin.swarm.SwarmService;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The JSON API under {@code /api/v1}, on the origin's HTTP port: streams (list, one, kick),
 * recordings, the TURN relay's summary and the OpenAPI document that describes all of them
 * ({@code openapi.json} beside this class; {@link #ENDPOINTS} is checked against it by a test).
 *
 * <p>Every answer is JSON, errors included ({@code {"error": {"status", "message"}}}), never
 * cached. {@link ApiAccess} decides who may ask; CORS and preflight {@code OPTIONS} come from the
 * server's policy. Stream snapshots are taken on each stream's loop, and the recording directory is
 * listed off the event loops, so the request is held meanwhile.
 */
public final class ApiRoutes {
    static final String BASE = "/api/v1";
    static final String KIND = "api";

    /** Every route the API serves, as the OpenAPI document names them. */
    static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("GET", BASE + "/streams"),
            new Endpoint("GET", BASE + "/streams/{name}"),
            new Endpoint("DELETE", BASE + "/streams/{name}"),
            new Endpoint("GET", BASE + "/recordings"),
            new Endpoint("GET", BASE + "/turn"),
            new Endpoint("GET", BASE + "/swarm/{name}"),
            new Endpoint("GET", BASE + "/openapi.json"));

    private static final AsciiString JSON = AsciiString.cached("application/json; charset=utf-8");
    /** Longer than any snapshot or listing takes; past it the request gets a 503. */
    private static final long ANSWER_TIMEOUT_MS = 5_000;

    private static final Set<HttpMethod> ANY_METHOD =
            Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

    /** One route: method and path template. */
    public record Endpoint(String method, String path) {}

    /** Every route the API serves, for the test that checks them against the OpenAPI document. */
    public static List<Endpoint> endpoints() {
        return ENDPOINTS;
    }

    private final StreamRegistry registry;
    private final RecordingStore recordings;
    private final ApiAccess access;
    private final RelaySummarySource relay;
    private final SwarmService swarm;
    private final SharedBody openApi;

    /**
     * @param recordings the recording directory, or null when the origin does not record
     * @param relay      the TURN relay in this process ({@code --turn-config}), or null
     */
    public ApiRoutes(StreamRegistry registry, RecordingStore recordings, ApiAccess access, RelaySummarySource relay) {
        this(registry, recordings, access, relay, null);
    }

    /** @param swarm answers {@code /api/v1/swarm/NAME} for every viewer, or null when no stream has the swarm on */
    public ApiRoutes(
            StreamRegistry registry,
            RecordingStore recordings,
            ApiAccess access,
            RelaySummarySource relay,
            SwarmService swarm) {
        this.swarm = swarm;
        this.registry = registry;
        this.recordings = recordings;
        this.access = access;
        this.relay = relay;
        this.openApi = SharedBody.of(resource("openapi.json"), JSON);
    }

    /** Frees the OpenAPI document's direct memory, once the server that serves it has closed. */
    public void release() {
        openApi.release();
    }

    /** Adds the API's routes to {@code routes}, a catch-all for the rest of {@code /api/} last. */
    public void addTo(HttpRoutes.Builder routes) {
        routes.get(BASE + "/streams", KIND, guarded(this::streams))
                // One route for both methods, so that OPTIONS and 405 name both.
                .route(Set.of(HttpMethod.GET, HttpMethod.DELETE), BASE + "/streams/{name}", KIND, guarded(exchange -> {
                    if (exchange.method().equals(HttpMethod.DELETE)) {
                        kick(exchange);
                    } else {
                        stream(exchange);
                    }
                }))
                .get(BASE + "/recordings", KIND, guarded(this::recordings))
                .get(BASE + "/turn", KIND, guarded(this::relay))
                // Every viewer asks, from anywhere: not guarded, rate-limited per address instead.
                .get(BASE + "/swarm/{name}", KIND, this::swarm)
                .get(
                        BASE + "/openapi.json",
                        KIND,
                        exchange -> exchange.reply(HttpResponseStatus.OK)
                                .cache(CacheControl.noCache())
                                .send(openApi))
                .route(ANY_METHOD, "/api/{rest...}", KIND, guarded(ApiRoutes::unknown));
    }

    private HttpHandler guarded(HttpHandler handler) {
        return exchange -> {
            ApiAccess.Refusal refusal = access.check(exchange);
            if (refusal == null) {
                handler.handle(exchange);
                return;
            }
            var reply = exchange.reply(refusal.status()).contentType(JSON).cache(CacheControl.noStore());
            if (refusal.status().equals(HttpResponseStatus.UNAUTHORIZED)) {
                reply.header(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"tern\"");
            }
            reply.send(ApiJson.error(refusal.status().code(), refusal.message()));
        };
    }

    private void streams(HttpExchange exchange) {
        later(
                exchange,
                registry.snapshots()
                        .thenApply(all -> ok(ApiJson.streams(all.stream()
                                .filter(StreamSnapshot::live)
                                .sorted((a, b) -> a.name().compareTo(b.name()))
                                .toList()))));
    }

    private void stream(HttpExchange exchange) {
        String name = exchange.pathParam("name");
        later(exchange, registry.snapshot(name).thenApply(s -> s == null ? noStream(name) : ok(ApiJson.stream(s))));
    }

    /** Disconnects the publisher; the stream ends (and leaves the list) once its ingest has closed. */
    private void kick(HttpExchange exchange) {
        String name = exchange.pathParam("name");
        LiveStream stream = registry.lookup(name);
        if (stream == null || stream.ended()) {
            send(exchange, noStream(name));
            return;
        }
        stream.session().disconnect("disconnected by an operator (DELETE " + BASE + "/streams/" + name + ")");
        send(exchange, new Answer(HttpResponseStatus.ACCEPTED, ApiJson.kicked(name, stream.instanceId())));
    }

    private void recordings(HttpExchange exchange) {
        if (recordings == null) {
            send(exchange, ok(ApiJson.recordings(false, List.of())));
            return;
        }
        later(exchange, registry.snapshots().thenApplyAsync(live -> {
            Set<String> writing = new HashSet<>();
            for (StreamSnapshot s : live) {
                if (s.recording() != null && s.recording().file() != null) {
                    writing.add(s.recording().file());
                }
            }
            return ok(ApiJson.recordings(true, listRecordings(writing)));
        }));
    }

    /** Blocking: walks the recording directory. */
    private List<RecordingEntry> listRecordings(Set<String> writing) {
        List<RecordingEntry> out = new ArrayList<>();
        try {
            for (RecordingFile f : recordings.list()) {
                long endMs;
                try {
                    endMs = Files.getLastModifiedTime(recordings.root().resolve(f.path()))
                            .toMillis();
                } catch (IOException gone) {
                    continue; // retention removed it meanwhile
                }
                out.add(new RecordingEntry(
                        f.path(), f.stream(), f.startEpochMs(), endMs, f.sizeBytes(), writing.contains(f.path())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.sort((a, b) -> a.path().compareTo(b.path()));
        return out;
    }

    private void relay(HttpExchange exchange) {
        if (relay == null) {
            send(
                    exchange,
                    error(
                            HttpResponseStatus.NOT_FOUND,
                            "no TURN relay runs in this process (--turn-config FILE runs one)"));
            return;
        }
        send(exchange, ok(ApiJson.relay(relay.summary())));
    }

    private void swarm(HttpExchange exchange) {
        String name = exchange.pathParam("name");
        if (swarm == null) {
            send(exchange, error(HttpResponseStatus.NOT_FOUND, "the swarm is off on this origin (--swarm)"));
            return;
        }
        long retryAfterS = exchange.remoteAddress() == null
                ? 0
                : swarm.retryAfterSeconds(exchange.remoteAddress().getAddress());
        if (retryAfterS > 0) {
            exchange.reply(HttpResponseStatus.TOO_MANY_REQUESTS)
                    .header(HttpHeaderNames.RETRY_AFTER, Long.toString(retryAfterS))
                    .contentType(JSON)
                    .cache(CacheControl.noStore())
                    .send(ApiJson.error(
                            429, "too many swarm requests from this address; retry in " + retryAfterS + " s"));
            return;
        }
        String host = exchange.header(HttpHeaderNames.HOST);
        if (host == null || host.isBlank()) {
            host = exchange.header(":authority"); // HTTP/2 without a Host header
        }
        if (host == null || host.isBlank()) {
            send(
                    exchange,
                    error(HttpResponseStatus.BAD_REQUEST, "no Host header: the relay URLs name the host you reached"));
            return;
        }
        later(
                exchange,
                swarm.answer(name, host, exchange.isSecure())
                        .thenApply(a -> a == null
                                ? error(
                                        HttpResponseStatus.NOT_FOUND,
                                        "no stream " + StreamNames.APP + "/" + name + " with the swarm on")
                                : ok(ApiJson.swarm(a))));
    }

    /** Under {@code /api/} but no route: 405 (with {@code Allow}) for a known path, else 404. */
    private static void unknown(HttpExchange exchange) {
        List<String> allowed = new ArrayList<>();
        for (Endpoint e : ENDPOINTS) {
            if (matches(e.path(), exchange.path())) {
                allowed.add(e.method());
            }
        }
        if (allowed.isEmpty()) {
            send(exchange, error(HttpResponseStatus.NOT_FOUND, "no API route " + exchange.path()));
            return;
        }
        if (allowed.contains("GET")) {
            allowed.add("HEAD");
        }
        allowed.add("OPTIONS");
        exchange.reply(HttpResponseStatus.METHOD_NOT_ALLOWED)
                .header(HttpHeaderNames.ALLOW, String.join(", ", allowed))
                .contentType(JSON)
                .cache(CacheControl.noStore())
                .send(ApiJson.error(
                        405, exchange.method() + " is not allowed on " + exchange.path() + "; use " + allowed));
    }

    /** Whether {@code path} fits {@code template}, whose {@code {x}} segments match any one segment. */
    static boolean matches(String template, String path) {
        String[] t = template.split("/", -1);
        String[] p = path.split("/", -1);
        if (t.length != p.length) {
            return false;
        }
        for (int i = 0; i < t.length; i++) {
            boolean capture = t[i].startsWith("{");
            if (capture ? p[i].isEmpty() : !t[i].equals(p[i])) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- answering

    private record Answer(HttpResponseStatus status, String json) {}

    private static Answer ok(String json) {
        return new Answer(HttpResponseStatus.OK, json);
    }

    private static Answer error(HttpResponseStatus status, String message) {
        return new Answer(status, ApiJson.error(status.code(), message));
    }

    private static Answer noStream(String name) {
        return error(HttpResponseStatus.NOT_FOUND, "no stream " + StreamNames.APP + "/" + name);
    }

    private static void send(HttpExchange exchange, Answer answer) {
        exchange.reply(answer.status())
                .contentType(JSON)
                .cache(CacheControl.noStore())
                .send(answer.json());
    }

    /** Holds the request until {@code work} completes, then answers it on its connection's loop. */
    private static void later(HttpExchange exchange, CompletableFuture<Answer> work) {
        if (!exchange.defer(
                ANSWER_TIMEOUT_MS,
                TimeUnit.MILLISECONDS,
                e -> send(e, error(HttpResponseStatus.SERVICE_UNAVAILABLE, "the origin did not answer in time")))) {
            return;
        }
        work.whenComplete((answer, failure) -> exchange.eventLoop().execute(() -> {
            if (exchange.isHeld()) {
                send(
                        exchange,
                        failure == null
                                ? answer
                                : error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "failed: " + rootMessage(failure)));
            }
        }));
    }

    private static String rootMessage(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }

    static byte[] resource(String name) {
        try (InputStream in = ApiRoutes.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is not in the build of " + ApiRoutes.class);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
