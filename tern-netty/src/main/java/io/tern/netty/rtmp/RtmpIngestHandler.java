package io.tern.netty.rtmp;

import io.tern.media.AccessUnit;
import io.tern.media.codec.CodecConfig;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.session.RtmpEvent.TimestampDiscontinuity;
import java.util.Map;

/**
 * What the origin server implements to take RTMP publishers. Every method is called on the
 * publisher's event loop, in stream order; none may block. The media arrive only between an
 * accepted decision and {@link #onEndOfStream}.
 */
public interface RtmpIngestHandler {
    /**
     * A publisher asks to publish {@link RtmpPublisher#streamName()}. Answer with
     * {@link PublishReply#accept()} or {@link PublishReply#refuse(String)}, from any thread,
     * now or later (within the engine's decision timeout): for instance refuse a name that is
     * already live, or ask an HTTP hook first.
     */
    void onPublishRequest(RtmpPublisher publisher, PublishReply reply);

    /** The first configuration of a track, or a changed one (a packager starts a discontinuity). */
    void onCodecConfig(RtmpPublisher publisher, CodecConfig config);

    void onAccessUnit(RtmpPublisher publisher, AccessUnit unit);

    /** The next access unit of a track does not follow on from the previous one. */
    default void onDiscontinuity(RtmpPublisher publisher, TimestampDiscontinuity discontinuity) {}

    default void onMetadata(RtmpPublisher publisher, Map<String, AmfValue> metadata) {}

    /**
     * The accepted publish ended: the publisher unpublished, vanished, timed out, sent something
     * Tern refuses, or was closed locally. Called exactly once for every accepted publish, even
     * one accepted after its connection had already closed.
     */
    void onEndOfStream(RtmpPublisher publisher, String reason);

    /** Every connection ends here, publishing or not: for logs and metrics. */
    default void onConnectionClosed(RtmpPublisher connection, CloseReason reason, String detail) {}
}
