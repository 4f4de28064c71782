package io.tern.server.origin.ingest;

import io.netty.channel.EventLoop;
import io.tern.hls.packager.StreamLayout;
import io.tern.media.AccessUnit;
import io.tern.media.codec.CodecConfig;
import io.tern.netty.rtmp.PublishReply;
import io.tern.netty.rtmp.RtmpIngestHandler;
import io.tern.netty.rtmp.RtmpPublisher;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.session.RtmpEvent.TimestampDiscontinuity;
import io.tern.server.origin.auth.PublishRequest;
import io.tern.server.origin.metrics.OriginCounters;
import io.tern.server.origin.metrics.OriginCounters.Cause;
import io.tern.server.origin.registry.IngestSession;
import io.tern.server.origin.registry.PublishOutcome;
import io.tern.server.origin.registry.StreamInput;
import io.tern.server.origin.registry.StreamRegistry;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * RTMP publishers into the {@link StreamRegistry}: each publish request is the registry's to
 * decide, and an accepted publisher's configurations, frames, timestamp jumps and end go to its
 * stream's {@link StreamInput}, on the connection's event loop, which is the stream's. The only
 * RTMP-specific part of the origin: SRT plugs into the registry the same way.
 */
public final class RtmpIngest implements RtmpIngestHandler {
    public static final String PROTOCOL = "rtmp";

    private final StreamRegistry registry;
    private final OriginCounters counters;
    /** Accepted publishers' inputs; looked up per frame without a lock or an allocation. */
    private final Map<RtmpPublisher, StreamInput> inputs = new ConcurrentHashMap<>();

    public RtmpIngest(StreamRegistry registry) {
        this.registry = registry;
        this.counters = registry.counters();
    }

    @Override
    public void onPublishRequest(RtmpPublisher publisher, PublishReply reply) {
        PublishRequest request = new PublishRequest(
                PROTOCOL, publisher.app(), publisher.streamName(), publisher.remoteAddress(), publisher.query());
        registry.publish(request, new Session(publisher)).thenAccept(outcome -> {
            switch (outcome) {
                case PublishOutcome.Accepted accepted ->
                    // The input is in place before the engine accepts, so no frame can miss it.
                    publisher.eventLoop().execute(() -> {
                        inputs.put(publisher, accepted.input());
                        reply.accept();
                    });
                case PublishOutcome.Refused refused -> reply.refuse(refused.reason());
            }
        });
    }

    @Override
    public void onMetadata(RtmpPublisher publisher, Map<String, AmfValue> metadata) {
        StreamInput input = inputs.get(publisher);
        StreamLayout layout = declaredLayout(metadata);
        if (input != null && layout != null) {
            input.declareLayout(layout);
        }
    }

    /** The tracks {@code onMetaData} declares, or null when it names no codec. */
    static StreamLayout declaredLayout(Map<String, AmfValue> metadata) {
        boolean video = declares(metadata.get("videocodecid"));
        boolean audio = declares(metadata.get("audiocodecid"));
        if (video && audio) {
            return StreamLayout.VIDEO_AND_AUDIO;
        }
        return video ? StreamLayout.VIDEO_ONLY : audio ? StreamLayout.AUDIO_ONLY : null;
    }

    private static boolean declares(AmfValue codec) {
        return switch (codec) {
            case AmfValue.AmfNumber n -> n.value() != 0;
            case AmfValue.AmfString s -> !s.value().isEmpty();
            case null, default -> false;
        };
    }

    @Override
    public void onCodecConfig(RtmpPublisher publisher, CodecConfig config) {
        StreamInput input = inputs.get(publisher);
        if (input != null) {
            input.config(config);
        }
    }

    @Override
    public void onAccessUnit(RtmpPublisher publisher, AccessUnit unit) {
        StreamInput input = inputs.get(publisher);
        if (input != null) {
            input.accessUnit(unit);
        }
    }

    @Override
    public void onDiscontinuity(RtmpPublisher publisher, TimestampDiscontinuity d) {
        StreamInput input = inputs.get(publisher);
        if (input != null) {
            input.discontinuity(
                    d.track(),
                    d.kind().name().toLowerCase(java.util.Locale.ROOT) + " from " + d.previousDts() + " to " + d.dts()
                            + " (90 kHz)");
        }
    }

    @Override
    public void onEndOfStream(RtmpPublisher publisher, String reason) {
        StreamInput input = inputs.remove(publisher);
        if (input != null) {
            input.end(reason);
        }
    }

    @Override
    public void onConnectionClosed(RtmpPublisher connection, CloseReason reason, String detail) {
        counters.ingestClosed(PROTOCOL, reason.name());
        if (reason != CloseReason.PEER_CLOSED
                && reason != CloseReason.LOCAL_CLOSE
                && reason != CloseReason.PUBLISH_REFUSED) {
            counters.error(Cause.INGEST_ABNORMAL_CLOSE);
        }
    }

    /** An RTMP connection as the registry sees it. */
    private record Session(RtmpPublisher publisher) implements IngestSession {
        @Override
        public String protocol() {
            return PROTOCOL;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return publisher.remoteAddress();
        }

        @Override
        public EventLoop eventLoop() {
            return publisher.eventLoop();
        }

        @Override
        public void disconnect(String reason) {
            publisher.close(reason);
        }
    }
}
