package io.tern.rtmp.session;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.amf.AmfValue;
import java.util.Map;

/**
 * What a session reports, in order, through {@code pollEvent()}. Media events are delivered
 * only for an accepted publish; {@link Closed} is always the last event.
 */
public sealed interface RtmpEvent {

    /** Server: the client connected to {@code app} (answered with NetConnection.Connect.Success). Client: the server accepted the connect. */
    record Connected(String app, String tcUrl, String flashVersion) implements RtmpEvent {}

    /**
     * Server: the client asks to publish. Answer with {@code acceptPublish(messageStreamId)} or
     * {@code refusePublish(messageStreamId, description)}, now or in a later input.
     *
     * @param streamName the publish name before any {@code ?}
     * @param query what followed the {@code ?} in the publish name (or in the app), without it; empty if none
     * @param publishType {@code live}, {@code record} or {@code append}, as the client sent it
     */
    record PublishRequested(int messageStreamId, String app, String streamName, String query, String publishType)
            implements RtmpEvent {}

    /** Server: the publish was accepted and answered. Client: the server answered NetStream.Publish.Start. */
    record PublishStarted(String streamName) implements RtmpEvent {}

    /** Client: the server refused the connect or the publish; {@link Closed} follows. */
    record PublishRefused(String code, String description) implements RtmpEvent {}

    /** A new decoder configuration (the first, or a change); repeats of the current one are not reported. */
    record ConfigReceived(CodecConfig config) implements RtmpEvent {}

    /** One access unit, after the configuration of its track. */
    record MediaReceived(AccessUnit unit) implements RtmpEvent {}

    /**
     * The next access unit of {@code track} does not follow on from the previous one: its DTS went
     * back, or jumped forward by more than the configured gap. A packager marks a discontinuity.
     */
    record TimestampDiscontinuity(TrackType track, long previousDts, long dts, Kind kind) implements RtmpEvent {
        public enum Kind {
            BACKWARDS,
            JUMP
        }
    }

    /** {@code @setDataFrame onMetaData} (or a bare {@code onMetaData}). */
    record MetadataReceived(Map<String, AmfValue> properties) implements RtmpEvent {}

    /** The publish ended (FCUnpublish, deleteStream, closeStream, or the connection ending). */
    record Unpublished(String streamName, String reason) implements RtmpEvent {}

    /** Something was dropped or ignored without ending the session (counted in the stats). */
    record Notice(String detail) implements RtmpEvent {}

    /** The session is over; the adapter closes the connection once the queued bytes are written. */
    record Closed(CloseReason reason, String detail) implements RtmpEvent {}
}
