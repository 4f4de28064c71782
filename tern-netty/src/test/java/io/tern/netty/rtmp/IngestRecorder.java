package io.tern.netty.rtmp;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.codec.CodecConfig;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.session.RtmpEvent.TimestampDiscontinuity;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A fake stream registry for the adapter's tests: a name that is live is refused (as the origin
 * will refuse it), everything that arrives is recorded per stream name.
 */
class IngestRecorder implements RtmpIngestHandler {
    /** What one publish delivered. */
    static final class Stream {
        final List<CodecConfig> configs = new CopyOnWriteArrayList<>();
        final List<AccessUnit> units = new CopyOnWriteArrayList<>();
        final List<TimestampDiscontinuity> discontinuities = new CopyOnWriteArrayList<>();
        final CountDownLatch ended = new CountDownLatch(1);
        volatile String endReason;
        volatile String query;

        AvcConfig avc() {
            return configs.stream()
                    .filter(c -> c instanceof AvcConfig)
                    .map(c -> (AvcConfig) c)
                    .findFirst()
                    .orElseThrow();
        }

        AacConfig aac() {
            return configs.stream()
                    .filter(c -> c instanceof AacConfig)
                    .map(c -> (AacConfig) c)
                    .findFirst()
                    .orElseThrow();
        }

        List<AccessUnit> track(TrackType track) {
            return units.stream().filter(u -> u.track() == track).toList();
        }
    }

    /** A connection that ended, as the handler was told. */
    record ClosedConnection(String streamName, CloseReason reason, String detail) {}

    final Set<String> live = ConcurrentHashMap.newKeySet();
    final Map<String, Stream> streams = new ConcurrentHashMap<>();
    final List<String> refusals = new CopyOnWriteArrayList<>();
    final List<ClosedConnection> closed = new CopyOnWriteArrayList<>();
    final Map<String, Map<String, ?>> metadata = new ConcurrentHashMap<>();

    @Override
    public void onPublishRequest(RtmpPublisher publisher, PublishReply reply) {
        String name = publisher.streamName();
        if (!live.add(name)) {
            String description = "stream " + name + " is already live";
            refusals.add(description);
            reply.refuse(description);
            return;
        }
        Stream stream = new Stream();
        stream.query = publisher.query();
        streams.put(name, stream);
        reply.accept();
    }

    @Override
    public void onCodecConfig(RtmpPublisher publisher, CodecConfig config) {
        streams.get(publisher.streamName()).configs.add(config);
    }

    @Override
    public void onAccessUnit(RtmpPublisher publisher, AccessUnit unit) {
        streams.get(publisher.streamName()).units.add(unit);
    }

    @Override
    public void onDiscontinuity(RtmpPublisher publisher, TimestampDiscontinuity discontinuity) {
        streams.get(publisher.streamName()).discontinuities.add(discontinuity);
    }

    @Override
    public void onMetadata(RtmpPublisher publisher, Map<String, AmfValue> properties) {
        metadata.put(publisher.streamName(), properties);
    }

    @Override
    public void onEndOfStream(RtmpPublisher publisher, String reason) {
        Stream stream = streams.get(publisher.streamName());
        stream.endReason = reason;
        live.remove(publisher.streamName());
        stream.ended.countDown();
    }

    @Override
    public void onConnectionClosed(RtmpPublisher connection, CloseReason reason, String detail) {
        closed.add(new ClosedConnection(connection.streamName(), reason, detail));
    }
}
