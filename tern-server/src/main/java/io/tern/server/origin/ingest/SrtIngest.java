package io.tern.server.origin.ingest;

import io.netty.channel.EventLoop;
import io.tern.media.AccessUnit;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.ts.TsStats;
import io.tern.netty.srt.DemuxingIngest;
import io.tern.netty.srt.SrtPublishRequest;
import io.tern.netty.srt.SrtServer;
import io.tern.server.origin.auth.PublishDecision;
import io.tern.server.origin.auth.PublishPolicy;
import io.tern.server.origin.auth.PublishRequest;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginOptions;
import io.tern.server.origin.config.SrtUser;
import io.tern.server.origin.metrics.OriginCounters;
import io.tern.server.origin.metrics.OriginCounters.Cause;
import io.tern.server.origin.metrics.SrtCounters;
import io.tern.server.origin.metrics.SrtMetrics;
import io.tern.server.origin.registry.IngestSession;
import io.tern.server.origin.registry.PublishOutcome;
import io.tern.server.origin.registry.StreamInput;
import io.tern.server.origin.registry.StreamNames;
import io.tern.server.origin.registry.StreamRegistry;
import io.tern.server.origin.registry.StreamSnapshot;
import io.tern.srt.SrtEvent;
import io.tern.srt.SrtStats;
import io.tern.srt.StreamPassphrases;
import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SRT publishers into the {@link StreamRegistry}, as {@link RtmpIngest} does for RTMP. The
 * difference is when the origin decides: SRT can refuse only during the handshake, so the
 * listener's publish request ({@link SrtPublishRequest}) is answered here, on the SRT loop, after
 * everything the registry would check (application, name, "already live", token, the {@code
 * --on-publish} hook), with the passphrase ({@link #passphrases}: per user, else per stream, else
 * the server's); the registry's claim follows on the connection, once the passphrase was proven.
 * A hook answers later: the request is answered when it does, and the SRT engine keeps the
 * caller's repeated handshakes waiting meanwhile.
 *
 * <p>Everything but {@link #sample} runs on the SRT listener's one event loop, which is also every
 * SRT stream's packaging loop.
 */
public final class SrtIngest implements DemuxingIngest.MediaSink {
    public static final String PROTOCOL = "srt";

    private static final System.Logger LOG = System.getLogger("tern.origin");

    private final StreamRegistry registry;
    private final OriginCounters counters;
    private final StreamPassphrases passphrases;
    private final int maxStreams;
    private final SrtCounters srtCounters = new SrtCounters();
    /** Accepted publishers by SRT session id; written on the loop, read by {@link #sample} there too. */
    private final Map<Long, Publish> publishing = new ConcurrentHashMap<>();

    private SrtServer server;
    private DemuxingIngest demuxer;

    public SrtIngest(StreamRegistry registry, StreamPassphrases passphrases, int maxStreams) {
        this.registry = registry;
        this.counters = registry.counters();
        this.passphrases = passphrases;
        this.maxStreams = maxStreams;
    }

    /**
     * The passphrases of {@code config}: {@code srt-user} for a publisher naming that user, else the
     * stream's section's {@code srt-passphrase}, else the server-wide one (none: not encrypted).
     */
    public static StreamPassphrases passphrases(OriginConfig config) {
        Map<String, String> perStream = new HashMap<>();
        for (String name : config.configuredStreams()) {
            String own = config.streamValue(name, OriginOptions.SRT_PASSPHRASE);
            if (own != null) {
                perStream.put(StreamNames.APP + "/" + name, own);
            }
        }
        Map<String, String> perUser = new HashMap<>();
        for (SrtUser user : config.getAll(OriginOptions.SRT_USER)) {
            perUser.put(user.name(), user.passphrase());
        }
        return new StreamPassphrases(
                StreamNames.APP + "/", config.get(OriginOptions.SRT_PASSPHRASE), perStream, perUser);
    }

    /**
     * The start-up line for SRT publishers: an ffmpeg/OBS URL for {@code name}, with a token valid
     * for a day when the origin wants one; a passphrase is named, never printed.
     */
    public static String exampleUrl(PublishPolicy policy, OriginConfig config, String host, int port, String name) {
        String streamId = "publish:" + StreamNames.APP + "/" + name;
        if (policy.tokensByDefault()) {
            long expiry = java.time.Instant.now().getEpochSecond() + 24 * 3600;
            streamId += "::" + policy.serverTokens().mint(StreamNames.APP, name, expiry);
        }
        boolean encrypted = config.get(OriginOptions.SRT_PASSPHRASE) != null;
        return "Or over SRT: srt://" + host + ":" + port + "?streamid=" + streamId
                + (encrypted ? "&passphrase=<srt-passphrase>" : "") + " (latency "
                + config.get(OriginOptions.SRT_LATENCY_MS) + " ms)";
    }

    /** Binds the listener this ingest serves and the demuxer that feeds it (once, before the first caller). */
    public void attach(SrtServer server, DemuxingIngest demuxer) {
        this.server = server;
        this.demuxer = demuxer;
    }

    public SrtCounters counters() {
        return srtCounters;
    }

    // ---------------------------------------------------------------- the handshake's question

    @Override
    public void publishRequested(SrtPublishRequest request) {
        StreamId id = request.streamId();
        InetSocketAddress peer = request.peer();
        int refusal = refusal(id, peer);
        if (refusal >= 0) {
            request.reject(refusal);
            return;
        }
        PublishRequest publish = request(id, peer);
        CompletableFuture<PublishDecision> asked =
                registry.policy().authorizer(publish.name()).authorize(publish);
        if (asked.isDone() && !asked.isCompletedExceptionally()) {
            decide(request, asked.join());
            return;
        }
        asked.whenComplete((decision, failure) -> server.eventLoop().execute(() -> {
            // The hook took its time: the stream may have gone live, or the origin filled up, meanwhile.
            int late = refusal(id, peer);
            if (late >= 0) {
                request.reject(late);
            } else {
                decide(
                        request,
                        decision != null ? decision : PublishDecision.refuse("the publish check failed: " + failure));
            }
        }));
    }

    /** What the registry would refuse {@code id} for, as a libsrt code (logged), or -1. */
    private int refusal(StreamId id, InetSocketAddress peer) {
        if (id.mode() != StreamId.Mode.PUBLISH) {
            return refuse(id, peer, RejectReason.X_BAD_MODE, "only publishing (m=publish) is served over SRT");
        }
        PublishRequest request = request(id, peer);
        if (request == null) {
            return refuse(
                    id,
                    peer,
                    RejectReason.X_NOTFOUND,
                    "no such stream: publish to " + StreamNames.APP + "/NAME, NAME being " + StreamNames.RULE);
        }
        var current = registry.lookup(request.name());
        if (current != null && !current.ended()) {
            return refuse(
                    id,
                    peer,
                    RejectReason.X_CONFLICT,
                    "stream " + request.streamPath() + " is already being published (by "
                            + current.session().protocol() + " "
                            + current.session().remoteAddress() + ")");
        }
        if (registry.liveCount() >= maxStreams) {
            return refuse(
                    id, peer, RejectReason.X_OVERLOAD, maxStreams + " streams are live, the most this origin takes");
        }
        return -1;
    }

    private void decide(SrtPublishRequest request, PublishDecision decision) {
        if (!decision.allowed()) {
            counters.error(Cause.PUBLISH_UNAUTHORIZED);
            request.reject(refuse(request.streamId(), request.peer(), RejectReason.X_UNAUTHORIZED, decision.reason()));
            return;
        }
        request.answer(passphrases.authorize(request.streamId(), request.peer()));
    }

    private int refuse(StreamId id, InetSocketAddress peer, int code, String reason) {
        LOG.log(
                System.Logger.Level.WARNING,
                "publish " + id.resource() + " from " + PROTOCOL + " " + peer + " refused: " + reason + " (SRT " + code
                        + " " + RejectReason.name(code) + ")");
        return code;
    }

    /**
     * The registry's view of a stream id: {@code live/NAME}, with the token from the id ({@code
     * publish:live/NAME:USER:TOKEN}, or the {@code token} key of {@code #!::r=live/NAME,m=publish,token=TOKEN})
     * as the query; null when the resource is not {@code live/NAME} with a valid name.
     */
    static PublishRequest request(StreamId id, InetSocketAddress peer) {
        String resource = id.resource();
        int slash = resource.indexOf('/');
        if (slash <= 0 || !StreamNames.APP.equals(resource.substring(0, slash))) {
            return null;
        }
        String name = resource.substring(slash + 1);
        if (!StreamNames.valid(name)) {
            return null;
        }
        String token = token(id);
        String query = token == null
                ? ""
                : "token=" + java.net.URLEncoder.encode(token, java.nio.charset.StandardCharsets.UTF_8);
        return new PublishRequest(PROTOCOL, StreamNames.APP, name, peer, query);
    }

    private static String token(StreamId id) {
        if (!id.raw().startsWith("#!::")) {
            return id.password() == null || id.password().isEmpty() ? null : id.password();
        }
        for (String pair : id.raw().substring(4).split(",")) {
            if (pair.startsWith("token=")) {
                return pair.substring("token=".length());
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- sessions

    @Override
    public void streamStarted(long sessionId, StreamId streamId, InetSocketAddress peer, int latencyMs, int keyLength) {
        srtCounters.connected();
        PublishRequest request = request(streamId, peer);
        Publish publish = new Publish(sessionId, peer, keyLength, request == null ? "" : request.name());
        PublishOutcome outcome = request == null
                ? new PublishOutcome.Refused("not a stream")
                : registry.publishAuthorized(request, publish);
        switch (outcome) {
            case PublishOutcome.Accepted accepted -> {
                publish.input = accepted.input();
                publishing.put(sessionId, publish);
            }
            // Lost a race for the name since the handshake: nothing was fed, so end the session.
            case PublishOutcome.Refused refused -> server.close(sessionId);
        }
    }

    @Override
    public void refused(InetSocketAddress peer, int code, String streamId) {
        srtCounters.rejected(code);
        String why = switch (code) {
            case RejectReason.BADSECRET -> "wrong passphrase";
            case RejectReason.UNSECURE ->
                "the publisher's encryption does not match the stream's passphrase"
                        + " (missing, or given for a stream without one)";
            case RejectReason.X_BAD_REQUEST -> "the stream id is missing or malformed";
            case RejectReason.RESOURCE -> "too many SRT sessions";
            default -> null; // the origin's own codes were logged when decided
        };
        if (why != null) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "publish '" + streamId + "' from " + PROTOCOL + " " + peer + " refused: " + why + " (SRT " + code
                            + " " + RejectReason.name(code) + ")");
        }
    }

    @Override
    public void accessUnit(long sessionId, AccessUnit unit, AvcConfig video, AacConfig audio) {
        Publish p = publishing.get(sessionId);
        if (p == null) {
            return;
        }
        if (video != null && video != p.video) {
            p.video = video;
            p.input.config(video);
        }
        if (audio != null && audio != p.audio) {
            p.audio = audio;
            p.input.config(audio);
        }
        p.input.accessUnit(unit);
    }

    @Override
    public void streamEnded(long sessionId, SrtEvent.CloseReason reason, SrtStats srtStats, TsStats demuxStats) {
        srtCounters.closed(srtStats);
        counters.ingestClosed(PROTOCOL, reason.name());
        if (reason == SrtEvent.CloseReason.IDLE_TIMEOUT) {
            counters.error(Cause.INGEST_ABNORMAL_CLOSE);
        }
        Publish p = publishing.remove(sessionId);
        if (p != null) {
            p.last = snapshot(srtStats, demuxStats, p.keyLength);
            p.input.end(
                    switch (reason) {
                        case PEER_SHUTDOWN -> "the SRT publisher closed the session";
                        case IDLE_TIMEOUT -> "nothing received from the SRT publisher for the idle timeout";
                        case LOCAL -> "the origin closed the SRT session";
                    });
        }
    }

    /** Every live SRT publisher's counters, taken on the SRT loop (for metrics). Any thread. */
    public CompletableFuture<List<SrtMetrics.Sample>> sample() {
        CompletableFuture<List<SrtMetrics.Sample>> f = new CompletableFuture<>();
        if (server == null) {
            f.complete(List.of());
            return f;
        }
        server.eventLoop().execute(() -> {
            List<SrtMetrics.Sample> all = new ArrayList<>();
            for (Publish p : publishing.values()) {
                SrtStats s = server.statsNow(p.sessionId);
                if (s != null) {
                    all.add(new SrtMetrics.Sample(p.stream, s));
                }
            }
            f.complete(all);
        });
        return f;
    }

    private static StreamSnapshot.Srt snapshot(SrtStats s, TsStats ts, int keyLength) {
        return new StreamSnapshot.Srt(
                s.latencyMs(),
                keyLength,
                s.rttUs() / 1000.0,
                s.receiveRateBps(),
                s.packetsReceived(),
                s.packetsLost(),
                s.packetsRetransmittedReceived(),
                s.packetsDroppedTooLate(),
                s.packetsUndecryptable(),
                ts == null ? 0 : ts.continuityErrors());
    }

    /** An SRT session as the registry sees it. */
    private final class Publish implements IngestSession {
        final long sessionId;
        final InetSocketAddress peer;
        final int keyLength;
        final String stream;
        StreamInput input;
        AvcConfig video;
        AacConfig audio;
        /** The final counters, once the session closed. */
        StreamSnapshot.Srt last;

        Publish(long sessionId, InetSocketAddress peer, int keyLength, String stream) {
            this.sessionId = sessionId;
            this.peer = peer;
            this.keyLength = keyLength;
            this.stream = stream;
        }

        @Override
        public String protocol() {
            return PROTOCOL;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return peer;
        }

        @Override
        public EventLoop eventLoop() {
            return server.eventLoop();
        }

        @Override
        public void disconnect(String reason) {
            server.close(sessionId);
        }

        @Override
        public StreamSnapshot.Srt srt() {
            SrtStats now = server.statsNow(sessionId);
            if (now == null) {
                return last;
            }
            return snapshot(now, demuxer.demuxStats(sessionId), keyLength);
        }
    }
}
