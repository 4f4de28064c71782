package io.tern.server.origin;

import static io.tern.server.origin.config.OriginOptions.HTTPS_PORT;
import static io.tern.server.origin.config.OriginOptions.HTTP_PORT;
import static io.tern.server.origin.config.OriginOptions.LISTEN;
import static io.tern.server.origin.config.OriginOptions.MAX_HELD_REQUESTS;
import static io.tern.server.origin.config.OriginOptions.MAX_HELD_REQUESTS_PER_IP;
import static io.tern.server.origin.config.OriginOptions.MAX_HTTP_CONNECTIONS;
import static io.tern.server.origin.config.OriginOptions.MAX_HTTP_CONNECTIONS_PER_IP;
import static io.tern.server.origin.config.OriginOptions.MAX_RTMP_CONNECTIONS;
import static io.tern.server.origin.config.OriginOptions.MAX_SRT_SESSIONS;
import static io.tern.server.origin.config.OriginOptions.MAX_STREAMS;
import static io.tern.server.origin.config.OriginOptions.NOSTR_DB;
import static io.tern.server.origin.config.OriginOptions.PROMETHEUS;
import static io.tern.server.origin.config.OriginOptions.PROMETHEUS_PORT;
import static io.tern.server.origin.config.OriginOptions.RECORD_DIR;
import static io.tern.server.origin.config.OriginOptions.RECORD_MAX_AGE;
import static io.tern.server.origin.config.OriginOptions.RECORD_MAX_BYTES;
import static io.tern.server.origin.config.OriginOptions.RECORD_QUEUE_BYTES;
import static io.tern.server.origin.config.OriginOptions.RECORD_ROTATE;
import static io.tern.server.origin.config.OriginOptions.RTMP_PORT;
import static io.tern.server.origin.config.OriginOptions.SRT_LATENCY_MS;
import static io.tern.server.origin.config.OriginOptions.SRT_PORT;
import static io.tern.server.origin.config.OriginOptions.SWARM_KEY_FILE;
import static io.tern.server.origin.config.OriginOptions.SWARM_RATE_PER_MINUTE;
import static io.tern.server.origin.config.OriginOptions.THREADS;
import static io.tern.server.origin.config.OriginOptions.TLS_CERT;
import static io.tern.server.origin.config.OriginOptions.TLS_KEY;
import static io.tern.server.origin.config.OriginOptions.TURN_CONFIG;
import static io.tern.server.origin.config.OriginOptions.TURN_SECRET_FILE;
import static io.tern.server.origin.config.OriginOptions.TURN_URL;

import io.netty.channel.EventLoopGroup;
import io.netty.util.internal.PlatformDependent;
import io.tern.hls.record.RetentionPolicy;
import io.tern.netty.NettyTransports;
import io.tern.netty.hls.DirectBudget;
import io.tern.netty.http.CorsPolicy;
import io.tern.netty.http.HttpCounters;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import io.tern.netty.http.HttpTls;
import io.tern.netty.nostr.NostrRelay;
import io.tern.netty.rtmp.RtmpListener;
import io.tern.netty.rtmp.RtmpListenerSettings;
import io.tern.netty.srt.DemuxingIngest;
import io.tern.netty.srt.SrtServer;
import io.tern.netty.stream.TlsContextSource;
import io.tern.netty.stream.TlsSettings;
import io.tern.server.config.WarningSink;
import io.tern.server.metrics.HttpMetrics;
import io.tern.server.metrics.MetricsEndpoint;
import io.tern.server.metrics.NostrMetrics;
import io.tern.server.nostr.MountedRelay;
import io.tern.server.option.ConfigException;
import io.tern.server.origin.api.ApiAccess;
import io.tern.server.origin.api.ApiRoutes;
import io.tern.server.origin.auth.PublishPolicy;
import io.tern.server.origin.auth.PublishSecret;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.http.HlsRoutes;
import io.tern.server.origin.ingest.RtmpIngest;
import io.tern.server.origin.ingest.SrtIngest;
import io.tern.server.origin.metrics.OriginCounters;
import io.tern.server.origin.metrics.OriginMetrics;
import io.tern.server.origin.metrics.SrtMetrics;
import io.tern.server.origin.record.RecordingDisk;
import io.tern.server.origin.record.RecordingStore;
import io.tern.server.origin.record.RecordingWriter;
import io.tern.server.origin.registry.StreamRegistry;
import io.tern.server.origin.stream.StreamContext;
import io.tern.server.origin.swarm.InProcessRelay;
import io.tern.server.origin.swarm.IpRateLimiter;
import io.tern.server.origin.swarm.SwarmKeyFile;
import io.tern.server.origin.swarm.SwarmService;
import io.tern.server.origin.swarm.SwarmSigning;
import io.tern.server.origin.swarm.TurnAccess;
import io.tern.server.origin.web.WebAssets;
import io.tern.server.origin.web.WebRoutes;
import io.tern.srt.SrtSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * The live origin, wired: RTMP ingest into the {@link StreamRegistry}, each stream packaged as
 * LL-HLS on its publisher's event loop, served over HTTP/1.1 and h2c (and h2 over TLS), recorded as
 * fragmented MP4 by a writer thread of its own, and counted for Prometheus. Ingest and HTTP share
 * one event-loop group. With {@code --nostr-db}, a Nostr relay on {@code /nostr} of the HTTP ports.
 *
 * <p>Start-up order matters: recordings a crash left incomplete are cut back before any listener
 * opens, so nothing torn is ever served or listed.
 */
public final class OriginServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern.origin");
    /**
     * The media chunks of all streams together, in direct memory (past it, chunks stay on the
     * heap): 192 MiB, or half the JVM's direct memory limit (by default its -Xmx) when that is
     * less, so the rest is left to the sockets' buffers.
     */
    static final long DIRECT_BUDGET_BYTES =
            Math.max(1L << 20, Math.min(192L << 20, PlatformDependent.maxDirectMemory() / 2));
    /** The media bytes one stream's shared bodies may pin (views of its chunks, not copies). */
    static final long STREAM_CACHE_BYTES = 48L << 20;

    private final OriginConfig config;
    private final EventLoopGroup group;
    private final OriginCounters counters = new OriginCounters();
    private final DirectBudget budget = new DirectBudget(DIRECT_BUDGET_BYTES);
    private RecordingWriter writer;
    private StreamRegistry registry;
    private RtmpListener rtmp;
    private SrtIngest srtIngest;
    private SrtServer srt;
    private TlsContextSource tls;
    private HttpServer http;
    /** Bodies made once at start (the OpenAPI document, the watch page), freed after the server closes. */
    private ApiRoutes apiRoutes;

    private WebAssets webAssets;
    private NostrRelay nostr;
    private MetricsEndpoint metrics;
    private RecordingStore.Repair repair;
    /** The swarm key, with whether it was made at this start; null with no stream's swarm on. */
    private SwarmKeyFile.Loaded swarmKey;
    /** The TURN relay of {@code --turn-config}, or null. */
    private InProcessRelay relay;

    private OriginServer(OriginConfig config) {
        this.config = config;
        int threads = config.get(THREADS) == 0 ? Runtime.getRuntime().availableProcessors() : config.get(THREADS);
        this.group = NettyTransports.newGroup(threads, "tern-origin");
    }

    /** Starts every listener of {@code config}; port 0 in it picks a free one (tests). */
    public static OriginServer start(OriginConfig config) throws Exception {
        return start(config, InstantSource.system(), new SecureRandom());
    }

    public static OriginServer start(OriginConfig config, InstantSource wallClock, SecureRandom random)
            throws Exception {
        config.checkFilesReadable();
        OriginServer server = new OriginServer(config);
        try {
            server.open(wallClock, random);
        } catch (Exception e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void open(InstantSource wallClock, SecureRandom random) throws Exception {
        // Checked before anything opens: an invalid API token is a configuration error, a build without hls.js a broken
        // one.
        ApiAccess apiAccess = ApiAccess.from(config);
        webAssets = WebAssets.load();
        Path recordDir = config.get(RECORD_DIR);
        if (recordDir != null) {
            RecordingStore store = new RecordingStore(recordDir);
            store.prepare();
            repair = store.repair();
            writer = new RecordingWriter(
                    store,
                    RecordingDisk.files(recordDir),
                    config.get(RECORD_QUEUE_BYTES),
                    new RetentionPolicy(config.get(RECORD_MAX_AGE), config.get(RECORD_MAX_BYTES)),
                    wallClock);
        }
        SwarmSigning swarm = null;
        if (config.anySwarm()) {
            Path keyFile = config.get(SWARM_KEY_FILE);
            try {
                swarmKey = SwarmKeyFile.loadOrCreate(keyFile, random);
            } catch (IllegalArgumentException e) {
                throw ConfigException.invalidValue(
                        SWARM_KEY_FILE.name(), keyFile.toString(), e.getMessage(), config.source(SWARM_KEY_FILE));
            }
            swarm = new SwarmSigning(swarmKey.key(), random);
        }
        TurnAccess turn = null;
        if (config.get(TURN_CONFIG) != null) {
            relay = InProcessRelay.start(
                    config.get(TURN_CONFIG), TURN_CONFIG.name(), WarningSink.systemLogger(), System::nanoTime);
            turn = relay.access(wallClock, random);
        } else if (!config.getAll(TURN_URL).isEmpty()) {
            Path secretFile = config.get(TURN_SECRET_FILE);
            String secret;
            try {
                secret = PublishSecret.resolve(null, secretFile, null).secret();
            } catch (IllegalArgumentException e) {
                throw ConfigException.invalidValue(
                        TURN_SECRET_FILE.name(),
                        secretFile.toString(),
                        e.getMessage().replace("--publish-secret-file " + secretFile + ": ", ""),
                        config.source(TURN_SECRET_FILE));
            }
            turn = TurnAccess.external(config.getAll(TURN_URL), secret, wallClock, random);
        }
        PublishPolicy policy = new PublishPolicy(config, random, wallClock);
        StreamContext context = new StreamContext(
                counters,
                wallClock,
                budget,
                STREAM_CACHE_BYTES,
                writer,
                config.get(RECORD_ROTATE),
                config.get(MAX_HELD_REQUESTS),
                null,
                swarm);
        registry = new StreamRegistry(config, policy, context, config.get(MAX_STREAMS), random::nextLong);
        InetSocketAddress any = new InetSocketAddress(config.get(LISTEN), 0);
        rtmp = RtmpListener.start(
                group,
                new InetSocketAddress(any.getAddress(), config.get(RTMP_PORT)),
                new RtmpListenerSettings(
                        io.tern.rtmp.session.RtmpSettings.defaults(),
                        config.get(MAX_RTMP_CONNECTIONS),
                        32 * 1024,
                        256 * 1024),
                new RtmpIngest(registry));
        srtIngest = new SrtIngest(registry, SrtIngest.passphrases(config), config.get(MAX_STREAMS));
        DemuxingIngest demuxer = new DemuxingIngest(srtIngest);
        SrtSettings srtDefaults = SrtSettings.defaults();
        srt = SrtServer.start(
                group,
                new InetSocketAddress(any.getAddress(), config.get(SRT_PORT)),
                srtDefaults
                        .withLatencyMs(config.get(SRT_LATENCY_MS))
                        .withLimits(config.get(MAX_SRT_SESSIONS), srtDefaults.maxSessionsPerIp()),
                demuxer);
        srtIngest.attach(srt, demuxer);
        HttpLimits limits = HttpLimits.DEFAULTS.toBuilder()
                .connections(config.get(MAX_HTTP_CONNECTIONS), config.get(MAX_HTTP_CONNECTIONS_PER_IP))
                .heldRequests(config.get(MAX_HELD_REQUESTS), config.get(MAX_HELD_REQUESTS_PER_IP))
                .build();
        HttpRoutes.Builder routes = HttpRoutes.builder().cors(CorsPolicy.anyOrigin());
        SwarmService swarmService = swarm == null
                ? null
                : new SwarmService(
                        registry,
                        swarm.origin(),
                        turn,
                        new IpRateLimiter(config.get(SWARM_RATE_PER_MINUTE), System::nanoTime));
        apiRoutes = new ApiRoutes(registry, writer == null ? null : writer.store(), apiAccess, relay, swarmService);
        apiRoutes.addTo(routes);
        new WebRoutes(registry, webAssets, name -> config.stream(name).swarm()).addTo(routes);
        HlsRoutes.addTo(routes, registry);
        Path nostrDb = config.get(NOSTR_DB);
        if (nostrDb != null) {
            nostr = MountedRelay.mount(routes, group.next(), nostrDb, NOSTR_DB.name(), config.source(NOSTR_DB));
        }
        HttpServer.Builder builder = HttpServer.builder(new HttpService(routes.build(), limits))
                .eventLoops(group)
                .listen(new InetSocketAddress(any.getAddress(), config.get(HTTP_PORT)));
        if (config.tls()) {
            tls = HttpTls.load(new TlsSettings(
                    config.get(TLS_CERT), config.get(TLS_KEY), null, false, TlsSettings.DEFAULT_RELOAD_POLL_MS));
            builder.listenTls(new InetSocketAddress(any.getAddress(), config.get(HTTPS_PORT)), tls::current);
        }
        http = builder.start();
        if (config.get(PROMETHEUS)) {
            OriginMetrics origin = new OriginMetrics(registry, writer, budget, rtmp::connections);
            HttpMetrics httpMetrics = new HttpMetrics(http.counters());
            SrtMetrics srtMetrics = new SrtMetrics(srtIngest.counters(), srtIngest::sample);
            NostrMetrics nostrMetrics = nostr == null ? null : new NostrMetrics(nostr);
            metrics = MetricsEndpoint.start(
                    r -> {
                        origin.register(r);
                        httpMetrics.register(r);
                        srtMetrics.register(r);
                        if (nostrMetrics != null) {
                            nostrMetrics.register(r);
                        }
                    },
                    () -> false,
                    new InetSocketAddress(config.get(PROMETHEUS_PORT)));
        }
    }

    public OriginConfig config() {
        return config;
    }

    public StreamRegistry registry() {
        return registry;
    }

    public OriginCounters counters() {
        return counters;
    }

    public HttpCounters httpCounters() {
        return http.counters();
    }

    /** The recording writer, or null when the origin does not record. */
    public RecordingWriter recordingWriter() {
        return writer;
    }

    /** What the start-up repair of recordings did, or null without recording. */
    public RecordingStore.Repair recordingRepair() {
        return repair;
    }

    public InetSocketAddress rtmpAddress() {
        return rtmp.localAddress();
    }

    /** The SRT listener's UDP address. */
    public InetSocketAddress srtAddress() {
        return srt.localAddress();
    }

    /** The Nostr relay on {@code /nostr}, or null without {@code --nostr-db}. */
    public NostrRelay nostrRelay() {
        return nostr;
    }

    /** The swarm key and whether this start made it, or null when no stream has the swarm on. */
    public SwarmKeyFile.Loaded swarmKey() {
        return swarmKey;
    }

    /** The TURN relay running in this process ({@code --turn-config}), or null. */
    public InProcessRelay relay() {
        return relay;
    }

    public int httpPort() {
        return http.port();
    }

    /** The HTTPS port, or -1 without TLS. */
    public int httpsPort() {
        return tls == null ? -1 : http.tlsPort();
    }

    /** The metrics port, or -1 without {@code --prometheus}. */
    public int metricsPort() {
        return metrics == null ? -1 : metrics.address().getPort();
    }

    public String summary() {
        return "RTMP " + rtmp.localAddress() + ", SRT udp " + srt.localAddress() + ", HTTP " + http.plainAddresses()
                + (tls == null ? "" : ", HTTPS " + http.tlsAddresses()) + ", " + NettyTransports.name() + ", "
                + (writer == null
                        ? "recording off"
                        : "recording to " + writer.store().root())
                + (nostr == null
                        ? ""
                        : ", Nostr relay on " + MountedRelay.PATH + " (database " + config.get(NOSTR_DB) + ")")
                + (relay == null ? "" : ", TURN relay " + relay.summaryLine());
    }

    /** Disconnects publishers, closes listeners and connections, finishes the recordings. */
    @Override
    public void close() {
        if (registry != null) {
            registry.close();
        }
        if (rtmp != null) {
            rtmp.close();
        }
        if (srt != null) {
            srt.close();
        }
        if (metrics != null) {
            metrics.close();
        }
        if (http != null) {
            http.close();
        }
        if (nostr != null) {
            nostr.close(); // after its connections, which closed with the HTTP server
        }
        if (relay != null) {
            relay.close();
        }
        // Let the publishers' ends reach the packagers (and the recordings their last chunks).
        group.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (tls != null) {
            tls.close();
        }
        if (apiRoutes != null) {
            apiRoutes.release();
        }
        if (webAssets != null) {
            webAssets.release();
        }
        if (writer != null) {
            writer.close();
        }
        LOG.log(System.Logger.Level.INFO, "origin stopped");
    }
}
