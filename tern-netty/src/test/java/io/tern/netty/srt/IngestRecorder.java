package io.tern.netty.srt;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.ts.TsStats;
import io.tern.srt.SrtEvent;
import io.tern.srt.SrtStats;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records what the SRT server delivers, per stream name, for the interop assertions. */
final class IngestRecorder implements DemuxingIngest.MediaSink {
    record Ended(SrtEvent.CloseReason reason, SrtStats srt, TsStats ts) {}

    final class Stream {
        final StreamId id;
        final List<AccessUnit> video = new CopyOnWriteArrayList<>();
        final List<AccessUnit> audio = new CopyOnWriteArrayList<>();
        volatile AvcConfig videoConfig;
        volatile AacConfig audioConfig;
        final CompletableFuture<Ended> ended = new CompletableFuture<>();

        Stream(StreamId id) {
            this.id = id;
        }
    }

    record Refusal(InetSocketAddress peer, int code, String streamId) {}

    final Map<Long, Stream> bySession = new ConcurrentHashMap<>();
    final Map<String, Stream> byName = new ConcurrentHashMap<>();
    final List<Refusal> refusals = new CopyOnWriteArrayList<>();
    final Map<String, CompletableFuture<Stream>> started = new ConcurrentHashMap<>();

    /** Answers as the interop tests' authorizer decides ({@link SrtInteropTest#authorize}). */
    @Override
    public void publishRequested(SrtPublishRequest request) {
        request.answer(SrtInteropTest.authorize(request.streamId(), request.peer()));
    }

    CompletableFuture<Stream> started(String resource) {
        return started.computeIfAbsent(resource, k -> new CompletableFuture<>());
    }

    @Override
    public void streamStarted(long sessionId, StreamId streamId, InetSocketAddress peer, int latencyMs, int keyLength) {
        Stream s = new Stream(streamId);
        bySession.put(sessionId, s);
        byName.put(streamId.resource(), s);
        started(streamId.resource()).complete(s);
    }

    @Override
    public void refused(InetSocketAddress peer, int code, String streamId) {
        refusals.add(new Refusal(peer, code, streamId));
    }

    @Override
    public void accessUnit(long sessionId, AccessUnit unit, AvcConfig video, AacConfig audio) {
        Stream s = bySession.get(sessionId);
        s.videoConfig = video;
        s.audioConfig = audio;
        (unit.track() == TrackType.VIDEO ? s.video : s.audio).add(unit);
    }

    @Override
    public void streamEnded(long sessionId, SrtEvent.CloseReason reason, SrtStats srtStats, TsStats demuxStats) {
        bySession.get(sessionId).ended.complete(new Ended(reason, srtStats, demuxStats));
    }
}
