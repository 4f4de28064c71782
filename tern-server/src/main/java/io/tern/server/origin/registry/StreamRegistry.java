package io.tern.server.origin.registry;

import io.tern.server.origin.auth.PublishPolicy;
import io.tern.server.origin.auth.PublishRequest;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.StreamConfig;
import io.tern.server.origin.metrics.OriginCounters;
import io.tern.server.origin.metrics.OriginCounters.Cause;
import io.tern.server.origin.stream.LiveStream;
import io.tern.server.origin.stream.StreamContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The one owner of the table of streams: who publishes which name. Every ingest asks it to
 * publish ({@link #publish}, with an {@link IngestSession}), whatever its protocol; HTTP looks
 * streams up by name ({@link #lookup}); the API and metrics read {@link #snapshots}.
 *
 * <p>A publish is checked (application, name, token and hook through the {@link PublishPolicy}),
 * then claimed: a name that is live is refused, and the refusal logged. An ended stream lingers
 * with EXT-X-ENDLIST for {@link #LINGER_MS} so that players see the end, unless a new publish of
 * the name replaces it first (under a new instance id, so no URL is reused).
 */
public final class StreamRegistry implements AutoCloseable {
    /** How long an ended stream stays served before it is dropped. */
    public static final long LINGER_MS = 30_000;

    private static final System.Logger LOG = System.getLogger("tern.origin");

    private final OriginConfig config;
    private final PublishPolicy policy;
    private final OriginCounters counters;
    private final StreamContext context;
    private final int maxStreams;
    private final LongSupplier instanceBits;
    private final Map<String, LiveStream> streams = new ConcurrentHashMap<>();
    private final List<Consumer<String>> publishListeners = new CopyOnWriteArrayList<>();

    /**
     * @param context      what the streams share; its {@code ended} callback is replaced by the registry's
     * @param instanceBits random bits for instance ids
     */
    public StreamRegistry(
            OriginConfig config,
            PublishPolicy policy,
            StreamContext context,
            int maxStreams,
            LongSupplier instanceBits) {
        this.config = config;
        this.policy = policy;
        this.counters = context.counters();
        this.context = new StreamContext(
                context.counters(),
                context.wallClock(),
                context.directBudget(),
                context.streamCacheBytes(),
                context.writer(),
                context.rotateMs(),
                context.maxHeldRequests(),
                this::ended,
                context.swarm());
        this.maxStreams = maxStreams;
        this.instanceBits = instanceBits;
    }

    /**
     * Asks to publish: completes (never exceptionally, on any thread) with the stream to feed, or
     * the reason to tell the publisher.
     */
    public CompletableFuture<PublishOutcome> publish(PublishRequest request, IngestSession session) {
        String who = describe(request, session);
        PublishOutcome refused = checkName(request, who);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        return policy.authorizer(request.name())
                .authorize(request)
                .thenApply(decision -> decision.allowed()
                        ? claim(request, session, who)
                        : refused(who, Cause.PUBLISH_UNAUTHORIZED, decision.reason()));
    }

    /**
     * Claims the name for an ingest that already asked {@link #policy()} itself (SRT asks during its
     * handshake, where a refusal can still be told to the publisher): the same checks as {@link
     * #publish} but the policy's, and the same claim. Any thread.
     */
    public PublishOutcome publishAuthorized(PublishRequest request, IngestSession session) {
        String who = describe(request, session);
        PublishOutcome refused = checkName(request, who);
        return refused != null ? refused : claim(request, session, who);
    }

    /** The application, name and "already live" checks: null when they pass. */
    private PublishOutcome checkName(PublishRequest request, String who) {
        if (!StreamNames.APP.equals(request.app())) {
            return refused(
                    who,
                    Cause.PUBLISH_BAD_NAME,
                    "application '" + request.app() + "' is not served; publish to /" + StreamNames.APP + "/NAME");
        }
        if (!StreamNames.valid(request.name())) {
            return refused(
                    who, Cause.PUBLISH_BAD_NAME, "stream name '" + request.name() + "' is not " + StreamNames.RULE);
        }
        LiveStream current = streams.get(request.name());
        if (current != null && !current.ended()) {
            return refused(who, Cause.PUBLISH_ALREADY_LIVE, alreadyLive(current));
        }
        return null;
    }

    private synchronized PublishOutcome claim(PublishRequest request, IngestSession session, String who) {
        String name = request.name();
        LiveStream existing = streams.get(name);
        if (existing != null && !existing.ended()) {
            return refused(who, Cause.PUBLISH_ALREADY_LIVE, alreadyLive(existing));
        }
        if (liveCount() >= maxStreams) {
            return refused(who, Cause.PUBLISH_OVER_LIMIT, maxStreams + " streams are live, the most this origin takes");
        }
        StreamConfig settings = config.stream(name);
        String instanceId = Long.toString(context.wallClock().millis(), 36)
                + Long.toString(instanceBits.getAsLong() & 0xFFFFFF, 36);
        LiveStream stream = new LiveStream(name, instanceId, settings, session, context);
        streams.put(name, stream);
        if (existing != null) {
            existing.eventLoop().execute(existing::dispose);
        }
        counters.publishAccepted();
        LOG.log(System.Logger.Level.INFO, "publish " + who + " accepted (instance " + instanceId + ")");
        for (Consumer<String> listener : publishListeners) {
            listener.accept(name);
        }
        return new PublishOutcome.Accepted(stream, instanceId);
    }

    private static String alreadyLive(LiveStream current) {
        IngestSession s = current.session();
        return "stream " + StreamNames.APP + "/" + current.name() + " is already being published (by " + s.protocol()
                + " " + s.remoteAddress() + ")";
    }

    private PublishOutcome refused(String who, Cause cause, String reason) {
        counters.error(cause);
        LOG.log(System.Logger.Level.WARNING, "publish " + who + " refused: " + reason);
        return new PublishOutcome.Refused(reason);
    }

    private static String describe(PublishRequest request, IngestSession session) {
        return request.app() + "/" + request.name() + " from " + session.protocol() + " " + session.remoteAddress();
    }

    /** Called on the stream's loop when its publish is over: it lingers, then goes. */
    private void ended(LiveStream stream) {
        stream.eventLoop()
                .schedule(
                        () -> {
                            if (streams.remove(stream.name(), stream)) {
                                stream.dispose();
                            }
                        },
                        LINGER_MS,
                        TimeUnit.MILLISECONDS);
    }

    /** Tells {@code listener} the name of every publish accepted from now on (the launcher prints its watch URL). */
    public void addPublishListener(Consumer<String> listener) {
        publishListeners.add(listener);
    }

    /** The stream published (or recently ended) under {@code name}, or null. Any thread. */
    public LiveStream lookup(String name) {
        return streams.get(name);
    }

    /** Streams being published now. */
    public int liveCount() {
        int n = 0;
        for (LiveStream s : streams.values()) {
            if (!s.ended()) {
                n++;
            }
        }
        return n;
    }

    /** Viewers of every stream, as each last counted them. */
    public long viewers() {
        long n = 0;
        for (LiveStream s : streams.values()) {
            n += s.viewerCount();
        }
        return n;
    }

    /** The streams in the table now (live and lingering). */
    public Collection<LiveStream> streams() {
        return List.copyOf(streams.values());
    }

    /** A snapshot of every stream, each taken on its own loop. */
    public CompletableFuture<List<StreamSnapshot>> snapshots() {
        List<CompletableFuture<StreamSnapshot>> each = new ArrayList<>();
        for (LiveStream s : streams.values()) {
            CompletableFuture<StreamSnapshot> one = new CompletableFuture<>();
            s.eventLoop().execute(() -> one.complete(s.snapshot()));
            each.add(one);
        }
        return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
                .thenApply(v -> each.stream().map(CompletableFuture::join).toList());
    }

    /** The snapshot of stream {@code name}, or a null result when there is none. */
    public CompletableFuture<StreamSnapshot> snapshot(String name) {
        LiveStream s = streams.get(name);
        if (s == null) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<StreamSnapshot> one = new CompletableFuture<>();
        s.eventLoop().execute(() -> one.complete(s.snapshot()));
        return one;
    }

    public PublishPolicy policy() {
        return policy;
    }

    public OriginCounters counters() {
        return counters;
    }

    /** Disconnects every publisher, then drops every stream (on its loop, after the publisher's end). */
    @Override
    public void close() {
        for (LiveStream s : streams.values()) {
            if (!s.ended()) {
                s.session().disconnect("the origin is shutting down");
            }
            s.eventLoop().execute(() -> {
                if (streams.remove(s.name(), s)) {
                    s.dispose();
                }
            });
        }
    }
}
