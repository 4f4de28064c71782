package io.tern.netty.srt;

import io.tern.media.AccessUnit;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.ts.TsDemuxer;
import io.tern.media.ts.TsStats;
import io.tern.srt.SrtEvent;
import io.tern.srt.SrtStats;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * An {@link SrtIngestListener} that demuxes each session's MPEG-TS and hands the server access
 * units with their configurations, the same as the RTMP ingest produces.
 */
public final class DemuxingIngest implements SrtIngestListener {
    /** The server's side: streams appear, carry access units, and end. */
    public interface MediaSink {
        /** A caller asks to publish: answer the request (once, from any thread, now or later). */
        void publishRequested(SrtPublishRequest request);

        /** @param keyLength the AES key length in bytes (16, 24, 32), 0 when not encrypted */
        void streamStarted(long sessionId, StreamId streamId, InetSocketAddress peer, int latencyMs, int keyLength);

        void refused(InetSocketAddress peer, int code, String streamId);

        /** {@code video}/{@code audio} are the configurations in force for this unit (null until known). */
        void accessUnit(long sessionId, AccessUnit unit, AvcConfig video, AacConfig audio);

        void streamEnded(long sessionId, SrtEvent.CloseReason reason, SrtStats srtStats, TsStats demuxStats);
    }

    private final MediaSink sink;
    private final Map<Long, TsDemuxer> demuxers = new HashMap<>();

    public DemuxingIngest(MediaSink sink) {
        this.sink = sink;
    }

    @Override
    public void onPublishRequested(SrtPublishRequest request) {
        sink.publishRequested(request);
    }

    @Override
    public void onConnected(long sessionId, StreamId streamId, InetSocketAddress peer, int latencyMs, int keyLength) {
        demuxers.put(sessionId, new TsDemuxer());
        sink.streamStarted(sessionId, streamId, peer, latencyMs, keyLength);
    }

    @Override
    public void onRejected(InetSocketAddress peer, int code, String streamId) {
        sink.refused(peer, code, streamId);
    }

    @Override
    public void onPayload(long sessionId, byte[] data, int length) {
        TsDemuxer d = demuxers.get(sessionId);
        if (d != null) {
            d.feed(data, 0, length);
            drain(sessionId, d);
        }
    }

    @Override
    public void onClosed(long sessionId, SrtEvent.CloseReason reason, SrtStats stats) {
        TsDemuxer d = demuxers.remove(sessionId);
        if (d != null) {
            d.flush();
            drain(sessionId, d);
            sink.streamEnded(sessionId, reason, stats, d.stats());
        }
    }

    /** Session {@code sessionId}'s demuxer counters so far, or null when it is not live; on the loop. */
    public TsStats demuxStats(long sessionId) {
        TsDemuxer d = demuxers.get(sessionId);
        return d == null ? null : d.stats();
    }

    private void drain(long sessionId, TsDemuxer d) {
        for (AccessUnit u; (u = d.poll()) != null; ) {
            sink.accessUnit(sessionId, u, d.videoConfig(), d.audioConfig());
        }
    }
}
