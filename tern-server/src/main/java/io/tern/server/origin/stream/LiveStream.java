package io.tern.server.origin.stream;

import io.netty.channel.EventLoop;
import io.tern.hls.packager.LlHlsPackager;
import io.tern.hls.packager.PackagerStats;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.swarm.SessionEndorsement;
import io.tern.hls.swarm.StreamSigner;
import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.codec.CodecConfig;
import io.tern.netty.hls.DirectChunkStore;
import io.tern.netty.hls.PackagerDriver;
import io.tern.netty.hls.Replies;
import io.tern.netty.http.HttpExchange;
import io.tern.server.origin.config.StreamConfig;
import io.tern.server.origin.metrics.OriginCounters;
import io.tern.server.origin.metrics.OriginCounters.Cause;
import io.tern.server.origin.record.StreamRecording;
import io.tern.server.origin.registry.IngestSession;
import io.tern.server.origin.registry.StreamInput;
import io.tern.server.origin.registry.StreamSnapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One published stream, as the server wires it: the ingest's {@link StreamInput} on one event loop
 * (the publisher's), the layout probe until the packager can start, then a {@link PackagerDriver}
 * (tern-netty) that runs the packager, holds and answers the requests and caches the bodies. What
 * stays here is the server's: the recording, the metrics, the viewers, the snapshot for the API.
 * HTTP requests for the stream hop to its loop ({@link #eventLoop()}), so no lock guards the media
 * path.
 */
public final class LiveStream implements StreamInput {
    private static final System.Logger LOG = System.getLogger("tern.origin");

    private final String name;
    private final String instanceId;
    private final StreamConfig settings;
    private final IngestSession session;
    private final EventLoop loop;
    private final StreamContext context;
    private final OriginCounters counters;
    private final long startedEpochMs;
    private final long startedNs;
    private final LayoutProbe probe = new LayoutProbe();
    private final ViewerTracker viewers = new ViewerTracker();
    private final IngestMeter meter;
    private final ArrayDeque<String> lastErrors = new ArrayDeque<>();
    /** Signs this instance's objects (peer-assisted delivery), or null with the swarm off. */
    private final StreamSigner signer;

    private PackagerDriver driver;
    private StreamRecording recording;
    private AvcConfig video;
    private AacConfig audio;
    private long accessUnits;
    private long ingestJumps;
    private volatile boolean ended;
    private volatile int viewerCount;

    public LiveStream(
            String name, String instanceId, StreamConfig settings, IngestSession session, StreamContext context) {
        this.name = name;
        this.instanceId = instanceId;
        this.settings = settings;
        this.session = session;
        this.loop = session.eventLoop();
        this.context = context;
        this.counters = context.counters();
        this.startedEpochMs = context.wallClock().millis();
        this.startedNs = now();
        this.meter = new IngestMeter(startedNs);
        this.signer =
                settings.swarm() && context.swarm() != null ? context.swarm().signer(name, instanceId) : null;
    }

    public String name() {
        return name;
    }

    public String instanceId() {
        return instanceId;
    }

    public IngestSession session() {
        return session;
    }

    public EventLoop eventLoop() {
        return loop;
    }

    /** Whether the publish is over (the stream lingers, with EXT-X-ENDLIST, until the registry drops it). */
    public boolean ended() {
        return ended;
    }

    /** Whether the stream's objects are signed for peer-assisted delivery. */
    public boolean swarm() {
        return signer != null;
    }

    /**
     * The session keys viewers verify this instance's objects with (the current one last); call on
     * the loop. Null with the swarm off.
     */
    public List<SessionEndorsement> swarmSessions() {
        return signer == null
                ? null
                : List.copyOf(signer.sessions(context.wallClock().instant().getEpochSecond()));
    }

    /** Viewers now (read from any thread, for metrics). */
    public int viewerCount() {
        return viewerCount;
    }

    // ---------------------------------------------------------------- ingest (on the loop)

    @Override
    public void declareLayout(StreamLayout layout) {
        if (driver == null && !ended) {
            start(layout);
        }
    }

    @Override
    public void config(CodecConfig config) {
        if (ended) {
            return;
        }
        if (config instanceof AvcConfig avc) {
            video = avc;
        } else if (config instanceof AacConfig aac) {
            audio = aac;
        }
        if (driver == null) {
            StreamLayout layout = probe.onConfig(config);
            if (layout != null) {
                start(layout);
            }
            return;
        }
        if (!driver.onConfig(config)) {
            error("the " + config.track() + " configuration " + config.codecs() + " was refused by the packager");
        }
    }

    @Override
    public void accessUnit(AccessUnit unit) {
        if (ended) {
            return;
        }
        accessUnits++;
        counters.ingest(unit.sizeBytes());
        meter.add(unit.sizeBytes(), now());
        if (driver == null) {
            StreamLayout layout = probe.onAccessUnit(unit);
            if (layout != null) {
                start(layout);
            } else if (probe.decideNow() == null && accessUnits >= LayoutProbe.MAX_UNITS) {
                probe.drain(); // frames without any configuration: nothing can be made of them
            }
            return;
        }
        driver.onAccessUnit(unit);
    }

    @Override
    public void discontinuity(TrackType track, String detail) {
        ingestJumps++;
        counters.error(Cause.TIMESTAMP_DISCONTINUITY);
        error(track + " timestamps: " + detail);
    }

    @Override
    public void end(String reason) {
        if (ended) {
            return;
        }
        if (driver == null) {
            StreamLayout layout = probe.decideNow();
            if (layout != null) {
                start(layout);
            }
        }
        if (driver != null) {
            driver.onEndOfStream();
        }
        ended = true;
        LOG.log(System.Logger.Level.INFO, "stream " + name + " ended: " + reason);
        context.ended().accept(this);
    }

    private void start(StreamLayout layout) {
        LlHlsPackager packager = new LlHlsPackager(
                settings.packagerConfig(instanceId, context.maxHeldRequests()),
                layout,
                context.wallClock()::millis,
                new DirectChunkStore(context.directBudget()),
                signer);
        if (context.writer() != null && settings.record()) {
            recording = new StreamRecording(name, layout, context.rotateMs(), context.writer());
        }
        driver = new PackagerDriver(packager, loop, context.streamCacheBytes(), counters, this::record);
        counters.packagerStarted(packager.stats());
        LOG.log(System.Logger.Level.INFO, "stream " + name + " (" + instanceId + "): " + layout);
        for (Object early : probe.drain()) {
            if (early instanceof CodecConfig c) {
                driver.onConfig(c);
            } else {
                driver.onAccessUnit((AccessUnit) early);
            }
        }
    }

    /** The packager's media outputs ({@code ChunkWritten}, {@code StreamEnded}) to the recording. */
    private void record(HlsEvent event) {
        if (recording != null) {
            recording.onEvent(event);
        }
    }

    // ---------------------------------------------------------------- requests (on the loop)

    /**
     * {@code index.m3u8}. {@code deferred}: the exchange was already held on its own loop before it
     * hopped here.
     */
    public void multivariant(HttpExchange exchange, boolean deferred) {
        if (driver == null) {
            Replies.error(exchange, 404, "the stream has no media yet");
            return;
        }
        driver.multivariant(exchange, deferred);
    }

    /** {@code video.m3u8} or {@code audio.m3u8} with its delivery directives. */
    public void mediaPlaylist(HttpExchange exchange, TrackType track, PlaylistRequest request, boolean deferred) {
        if (driver == null) {
            Replies.error(exchange, 404, "the stream has no media yet");
            return;
        }
        if (exchange.remoteAddress() != null) { // null only on channels that are not sockets (tests)
            viewers.seen(exchange.remoteAddress().getAddress(), now());
            viewerCount = viewers.size();
        }
        driver.mediaPlaylist(exchange, track, request, deferred);
    }

    /** An init segment, part or segment by its name under the instance's directory. */
    public void object(HttpExchange exchange, String file, boolean deferred) {
        if (driver == null) {
            Replies.error(exchange, 404, "the stream has no media yet");
            return;
        }
        driver.object(exchange, file, deferred);
    }

    // ---------------------------------------------------------------- stats

    private long now() {
        return loop.ticker().nanoTime();
    }

    private void error(String what) {
        if (lastErrors.size() >= StreamSnapshot.MAX_ERRORS) {
            lastErrors.pollFirst();
        }
        lastErrors.addLast(java.time.Instant.ofEpochMilli(context.wallClock().millis()) + " " + what);
        LOG.log(System.Logger.Level.INFO, "stream " + name + ": " + what);
    }

    /** The stream now; call on its loop. */
    public StreamSnapshot snapshot() {
        long nowNs = now();
        PackagerStats s = driver == null ? null : driver.stats();
        StreamSnapshot.Video v = video == null
                ? null
                : new StreamSnapshot.Video(video.codecs(), video.width(), video.height(), video.frameRate());
        StreamSnapshot.Audio a =
                audio == null ? null : new StreamSnapshot.Audio(audio.codecs(), audio.sampleRateHz(), audio.channels());
        return new StreamSnapshot(
                name,
                instanceId,
                session.protocol(),
                session.remoteAddress().getAddress().getHostAddress() + ":"
                        + session.remoteAddress().getPort(),
                !ended,
                startedEpochMs,
                TimeUnit.NANOSECONDS.toMillis(nowNs - startedNs),
                v,
                a,
                meter.bitsPerSecond(nowNs),
                accessUnits,
                s == null ? 0 : s.parts(),
                s == null ? 0 : s.segments(),
                viewers.viewers(nowNs),
                driver == null ? 0 : driver.heldCount(),
                s == null ? 0 : s.discontinuities(),
                ingestJumps + (s == null ? 0 : s.timestampJumps()),
                s == null ? 0 : s.framesDropped(),
                recording == null ? null : recording.snapshot(),
                new ArrayList<>(lastErrors),
                session.srt());
    }

    /** Frees what the stream holds; the registry calls it on the loop once the stream is gone. */
    public void dispose() {
        if (driver != null) {
            driver.close();
            counters.packagerGone(driver.stats());
            driver = null; // requests still queued on the loop find no media
        }
        ended = true;
    }
}
