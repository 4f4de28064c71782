package io.tern.rtmp.session;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.amf.AmfValue.AmfEcmaArray;
import io.tern.rtmp.amf.AmfValue.AmfNull;
import io.tern.rtmp.amf.AmfValue.AmfNumber;
import io.tern.rtmp.amf.AmfValue.AmfObject;
import io.tern.rtmp.amf.AmfValue.AmfString;
import io.tern.rtmp.amf.AmfValue.AmfUndefined;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.command.Command;
import io.tern.rtmp.command.NetStatus;
import io.tern.rtmp.flv.FlvDemuxer;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.handshake.ServerHandshake;
import io.tern.rtmp.session.RtmpEvent.ConfigReceived;
import io.tern.rtmp.session.RtmpEvent.Connected;
import io.tern.rtmp.session.RtmpEvent.MediaReceived;
import io.tern.rtmp.session.RtmpEvent.MetadataReceived;
import io.tern.rtmp.session.RtmpEvent.PublishRequested;
import io.tern.rtmp.session.RtmpEvent.PublishStarted;
import io.tern.rtmp.session.RtmpEvent.TimestampDiscontinuity;
import io.tern.rtmp.session.RtmpEvent.Unpublished;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The server side of one RTMP connection, for publishers (OBS, ffmpeg, GStreamer's rtmp2sink):
 * handshake, connect, releaseStream, FCPublish, createStream, publish, FCUnpublish, deleteStream,
 * {@code @setDataFrame}, and the FLV tags of the published stream.
 *
 * <p>A publish is decided by the application: the session reports {@link PublishRequested} and
 * waits for {@link #acceptPublish} or {@link #refusePublish}, which may come in any later input
 * (within the decision timeout). Until then media is dropped, as the client should not send any.
 */
public final class RtmpServerSession extends RtmpSession {
    private enum Phase {
        AWAIT_CONNECT,
        CONNECTED,
        PUBLISH_PENDING,
        PUBLISHING
    }

    private ServerHandshake handshake = new ServerHandshake();
    private HandshakeScheme clientScheme;
    private Phase phase = Phase.AWAIT_CONNECT;
    private String app = "";
    private String appQuery = "";
    private int nextStreamId = 1;
    private int publishStreamId;
    private String publishName;
    private long setupDeadlineNs = NO_DEADLINE;
    private long decisionDeadlineNs = NO_DEADLINE;
    private long lastMediaNs;
    private boolean reportedEarlyMedia;
    private final FlvDemuxer demuxer;

    public RtmpServerSession(RtmpSettings settings, RandomGenerator random, long nowNs) {
        super(settings, random, nowNs);
        this.demuxer = new FlvDemuxer(new DemuxerOutput(), settings.maxTimestampGapMs());
    }

    /**
     * Accepts the pending publish on {@code messageStreamId}: the client gets NetStream.Publish.Start
     * and media events follow. Returns false (and does nothing) if that publish is no longer
     * pending, for instance because the connection closed meanwhile.
     */
    public boolean acceptPublish(int messageStreamId, long nowNs) {
        this.nowNs = nowNs;
        if (isClosed() || phase != Phase.PUBLISH_PENDING || messageStreamId != publishStreamId) {
            return false;
        }
        sendUserControl(STREAM_BEGIN, messageStreamId);
        sendCommand(
                STATUS_CSID,
                messageStreamId,
                "onFCPublish",
                0,
                AmfNull.NULL,
                AmfObject.of("code", NetStatus.PUBLISH_START, "description", publishName));
        sendCommand(STATUS_CSID, messageStreamId, "onStatus", 0, AmfNull.NULL, NetStatus.publishStart(publishName));
        phase = Phase.PUBLISHING;
        demuxer.reset();
        decisionDeadlineNs = NO_DEADLINE;
        setupDeadlineNs = NO_DEADLINE;
        lastMediaNs = nowNs;
        event(new PublishStarted(publishName));
        return true;
    }

    /**
     * Refuses the pending publish: the client gets NetStream.Publish.BadName with {@code description}
     * (ffmpeg prints it) and the session closes. Returns false if that publish is no longer pending.
     */
    public boolean refusePublish(int messageStreamId, String description, long nowNs) {
        this.nowNs = nowNs;
        if (isClosed() || phase != Phase.PUBLISH_PENDING || messageStreamId != publishStreamId) {
            return false;
        }
        refuse(messageStreamId, NetStatus.PUBLISH_BAD_NAME, description);
        close(CloseReason.PUBLISH_REFUSED, "publish of '" + publishName + "' refused: " + description);
        return true;
    }

    /** The application name from connect, without any query. */
    public String app() {
        return app;
    }

    /** The scheme the client signed its handshake with; null before the handshake. */
    public HandshakeScheme clientHandshakeScheme() {
        return clientScheme;
    }

    /** The name being published (or asked for), or null. */
    public String streamName() {
        return phase == Phase.PUBLISH_PENDING || phase == Phase.PUBLISHING ? publishName : null;
    }

    public boolean publishing() {
        return phase == Phase.PUBLISHING && !isClosed();
    }

    // ---- handshake -------------------------------------------------------------------------

    @Override
    boolean handshake(ByteBuffer src, ByteWriter out) throws RtmpException {
        boolean done = handshake.consume(src, out, random);
        clientScheme = handshake.clientScheme();
        return done;
    }

    @Override
    int handshakeBytesRead() {
        return handshake == null ? 0 : handshake.bytesRead();
    }

    @Override
    void onHandshakeDone() {
        handshake = null;
        setupDeadlineNs = nowNs + settings.setupTimeoutNs();
    }

    // ---- commands --------------------------------------------------------------------------

    @Override
    void onCommand(int streamId, Command command) throws RtmpException {
        String name = command.name();
        if (phase == Phase.AWAIT_CONNECT && !name.equals("connect")) {
            throw new RtmpException(CloseReason.PROTOCOL_ERROR, "command '" + name + "' before connect");
        }
        switch (name) {
            case "connect" -> connect(command);
            case "releaseStream", "FCPublish" -> answerEmpty(command);
            case "createStream" -> createStream(command);
            case "publish" -> publish(streamId, command);
            case "FCUnpublish" -> {
                String unpublished = command.stringArgument(0);
                if (phase == Phase.PUBLISHING
                        && unpublished != null
                        && baseName(unpublished).equals(publishName)) {
                    sendCommand(
                            STATUS_CSID,
                            publishStreamId,
                            "onStatus",
                            0,
                            AmfNull.NULL,
                            NetStatus.status(NetStatus.UNPUBLISH_SUCCESS, publishName + " is now unpublished."));
                    unpublish("FCUnpublish");
                }
                answerEmpty(command);
            }
            case "deleteStream" -> {
                int deleted = (int) command.numberArgument(0, -1);
                if (deleted == publishStreamId && (phase == Phase.PUBLISHING || phase == Phase.PUBLISH_PENDING)) {
                    unpublish("deleteStream");
                }
            }
            case "closeStream" -> {
                if (streamId == publishStreamId && (phase == Phase.PUBLISHING || phase == Phase.PUBLISH_PENDING)) {
                    unpublish("closeStream");
                }
            }
            case "play", "play2" ->
                sendCommand(
                        STATUS_CSID,
                        streamId,
                        "onStatus",
                        0,
                        AmfNull.NULL,
                        NetStatus.error(
                                NetStatus.PLAY_FAILED, "this server takes publishers; play the stream over HLS"));
            case "_result", "_error", "onStatus", "onBWDone", "_checkbw" -> {
                // Answers and courtesies from the client need nothing back.
            }
            default -> {
                if (command.transactionId() != 0) {
                    sendCommand(
                            COMMAND_CSID,
                            streamId,
                            "_error",
                            command.transactionId(),
                            AmfNull.NULL,
                            NetStatus.error(NetStatus.CALL_FAILED, "Method not found (" + name + ")."));
                }
                notice("unknown command '" + name + "' ignored");
            }
        }
    }

    private void connect(Command command) throws RtmpException {
        if (phase != Phase.AWAIT_CONNECT) {
            throw new RtmpException(CloseReason.PROTOCOL_ERROR, "second connect on one connection");
        }
        AmfObject properties = command.object();
        String requestedApp = properties == null ? null : properties.string("app");
        String tcUrl = properties == null ? null : properties.string("tcUrl");
        String flashVer = properties == null ? null : properties.string("flashVer");
        double objectEncoding = properties == null ? 0 : properties.number("objectEncoding", 0);
        String fullApp = requestedApp == null ? "" : requestedApp;
        int q = fullApp.indexOf('?');
        app = trimSlashes(q < 0 ? fullApp : fullApp.substring(0, q));
        appQuery = q < 0 ? "" : fullApp.substring(q + 1);
        // nginx-rtmp's order: window, peer bandwidth, chunk size, then the answer.
        sendWindowAckSize(settings.windowAckSizeBytes());
        sendPeerBandwidth(settings.windowAckSizeBytes());
        sendChunkSize(settings.outgoingChunkSizeBytes());
        sendCommand(
                COMMAND_CSID,
                0,
                "_result",
                command.transactionId(),
                NetStatus.serverProperties(),
                NetStatus.connectSuccess(objectEncoding));
        phase = Phase.CONNECTED;
        event(new Connected(app, tcUrl, flashVer));
    }

    private void answerEmpty(Command command) {
        if (command.transactionId() != 0) {
            sendCommand(COMMAND_CSID, 0, "_result", command.transactionId(), AmfNull.NULL, AmfUndefined.UNDEFINED);
        }
    }

    private void createStream(Command command) {
        if (nextStreamId > settings.maxMessageStreams()) {
            sendCommand(
                    COMMAND_CSID,
                    0,
                    "_error",
                    command.transactionId(),
                    AmfNull.NULL,
                    NetStatus.error(NetStatus.CALL_FAILED, "more than " + settings.maxMessageStreams() + " streams"));
            return;
        }
        int id = nextStreamId++;
        sendCommand(COMMAND_CSID, 0, "_result", command.transactionId(), AmfNull.NULL, new AmfNumber(id));
    }

    private void publish(int streamId, Command command) {
        if (phase == Phase.PUBLISH_PENDING || phase == Phase.PUBLISHING) {
            refuse(streamId, NetStatus.PUBLISH_BAD_NAME, "this connection is already publishing " + publishName);
            return;
        }
        String requested = command.stringArgument(0);
        String type = command.stringArgument(1);
        if (streamId < 1 || streamId >= nextStreamId) {
            refuse(streamId, NetStatus.PUBLISH_BAD_NAME, "publish on stream " + streamId + ", which was not created");
            close(CloseReason.PUBLISH_REFUSED, "publish on message stream " + streamId + " without createStream");
            return;
        }
        String streamName = requested == null ? "" : baseName(requested);
        if (streamName.isEmpty()) {
            publishName = "";
            refuse(streamId, NetStatus.PUBLISH_BAD_NAME, "empty stream name");
            close(CloseReason.PUBLISH_REFUSED, "publish without a stream name");
            return;
        }
        int q = requested.indexOf('?');
        String query = q < 0 ? appQuery : requested.substring(q + 1);
        phase = Phase.PUBLISH_PENDING;
        publishStreamId = streamId;
        publishName = streamName;
        decisionDeadlineNs = nowNs + settings.decisionTimeoutNs();
        event(new PublishRequested(streamId, app, streamName, query, type == null ? "live" : type));
    }

    private void refuse(int streamId, String code, String description) {
        sendCommand(STATUS_CSID, streamId, "onStatus", 0, AmfNull.NULL, NetStatus.error(code, description));
    }

    private void unpublish(String how) {
        if (phase == Phase.PUBLISHING) {
            event(new Unpublished(publishName, how));
        }
        phase = Phase.CONNECTED;
        publishStreamId = 0;
        decisionDeadlineNs = NO_DEADLINE;
        setupDeadlineNs = nowNs + settings.setupTimeoutNs();
    }

    private static String baseName(String requested) {
        int q = requested.indexOf('?');
        return q < 0 ? requested : requested.substring(0, q);
    }

    private static String trimSlashes(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && s.charAt(start) == '/') {
            start++;
        }
        while (end > start && s.charAt(end - 1) == '/') {
            end--;
        }
        return s.substring(start, end);
    }

    // ---- media -----------------------------------------------------------------------------

    @Override
    void onData(int streamId, List<AmfValue> values) {
        if (phase != Phase.PUBLISHING || streamId != publishStreamId) {
            droppedMessages++;
            return;
        }
        int i = 0;
        if (values.size() > i
                && values.get(i) instanceof AmfString s
                && s.value().equals("@setDataFrame")) {
            i++;
        }
        if (values.size() > i + 1
                && values.get(i) instanceof AmfString s
                && s.value().equals("onMetaData")) {
            switch (values.get(i + 1)) {
                case AmfEcmaArray a -> event(new MetadataReceived(a.properties()));
                case AmfObject o -> event(new MetadataReceived(o.properties()));
                default -> droppedMessages++;
            }
            return;
        }
        droppedMessages++;
    }

    @Override
    void onMedia(int typeId, int streamId, long timestamp, byte[] payload, int offset, int length) {
        if (phase != Phase.PUBLISHING || streamId != publishStreamId) {
            droppedMessages++;
            if (!reportedEarlyMedia) {
                reportedEarlyMedia = true;
                notice("media on message stream " + streamId + " dropped: no accepted publish on it");
            }
            return;
        }
        lastMediaNs = nowNs;
        String refusal = typeId == MessageType.VIDEO
                ? demuxer.video(timestamp, payload, offset, length)
                : demuxer.audio(timestamp, payload, offset, length);
        if (refusal != null) {
            refuse(publishStreamId, NetStatus.PUBLISH_REJECTED, refusal);
            close(CloseReason.UNSUPPORTED_CODEC, refusal);
        }
    }

    /** Turns the demuxer's results into events. */
    private final class DemuxerOutput implements FlvDemuxer.Output {
        @Override
        public void config(CodecConfig config) {
            event(new ConfigReceived(config));
        }

        @Override
        public void accessUnit(AccessUnit unit) {
            event(new MediaReceived(unit));
        }

        @Override
        public void discontinuity(TrackType track, long previousDts, long dts, boolean backwards) {
            event(new TimestampDiscontinuity(
                    track,
                    previousDts,
                    dts,
                    backwards ? TimestampDiscontinuity.Kind.BACKWARDS : TimestampDiscontinuity.Kind.JUMP));
        }

        @Override
        public void dropped(String reason) {
            droppedMessages++;
            notice(reason);
        }
    }

    // ---- timers and the end ----------------------------------------------------------------

    @Override
    long sessionDeadlineNs() {
        long idleFrom = phase == Phase.PUBLISHING ? lastMediaNs : lastMessageNs;
        return Math.min(idleFrom + settings.idleTimeoutNs(), Math.min(setupDeadlineNs, decisionDeadlineNs));
    }

    @Override
    void sessionTimeout(long nowNs) {
        if (nowNs >= decisionDeadlineNs) {
            refusePublish(
                    publishStreamId,
                    "no publish decision within " + millis(settings.decisionTimeoutNs()) + " ms",
                    nowNs);
            return;
        }
        if (nowNs >= setupDeadlineNs) {
            close(
                    CloseReason.SETUP_TIMEOUT,
                    "no publish within " + millis(settings.setupTimeoutNs()) + " ms of the handshake");
            return;
        }
        if (phase == Phase.PUBLISHING && nowNs >= lastMediaNs + settings.idleTimeoutNs()) {
            close(CloseReason.IDLE_TIMEOUT, "no media for " + millis(settings.idleTimeoutNs()) + " ms");
        } else if (phase != Phase.PUBLISHING && nowNs >= lastMessageNs + settings.idleTimeoutNs()) {
            close(CloseReason.IDLE_TIMEOUT, "no message for " + millis(settings.idleTimeoutNs()) + " ms");
        }
    }

    @Override
    String peerClosedDetail() {
        return phase == Phase.PUBLISHING ? "peer closed without unpublishing" : "peer closed";
    }

    @Override
    void onClosing(CloseReason reason, String detail) {
        if (phase == Phase.PUBLISHING) {
            event(new Unpublished(publishName, detail));
        }
    }

    @Override
    long videoFrames() {
        return demuxer.videoFrames();
    }

    @Override
    long keyframes() {
        return demuxer.keyframes();
    }

    @Override
    long audioFrames() {
        return demuxer.audioFrames();
    }

    @Override
    long discontinuities() {
        return demuxer.discontinuities();
    }
}
