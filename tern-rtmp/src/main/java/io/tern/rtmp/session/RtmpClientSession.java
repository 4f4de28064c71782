package io.tern.rtmp.session;

import io.tern.media.AccessUnit;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.amf.Amf0Writer;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.amf.AmfValue.AmfEcmaArray;
import io.tern.rtmp.amf.AmfValue.AmfNull;
import io.tern.rtmp.amf.AmfValue.AmfObject;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.command.Command;
import io.tern.rtmp.command.NetStatus;
import io.tern.rtmp.flv.FlvTags;
import io.tern.rtmp.handshake.ClientHandshake;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpEvent.Connected;
import io.tern.rtmp.session.RtmpEvent.PublishRefused;
import io.tern.rtmp.session.RtmpEvent.PublishStarted;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The publishing side of one RTMP connection, as FMLE, OBS and ffmpeg publish: handshake,
 * connect, releaseStream, FCPublish, createStream, publish; then metadata, sequence headers and
 * access units; FCUnpublish and deleteStream at the end. Used to push to another origin and by
 * load tools. {@link RtmpEvent.PublishStarted} says when media may be sent.
 */
public final class RtmpClientSession extends RtmpSession {
    /**
     * Where to publish.
     *
     * @param app        the application, e.g. {@code live}
     * @param tcUrl      the connect URL, e.g. {@code rtmp://host:1935/live}
     * @param streamName the publish name, which may carry a {@code ?query} (a token)
     */
    public record Target(String app, String tcUrl, String streamName) {}

    private static final String FLASH_VERSION = "FMLE/3.0 (compatible; Tern)";
    private static final double CONNECT_TID = 1;
    private static final double CREATE_STREAM_TID = 4;
    private static final double PUBLISH_TID = 5;

    private enum Phase {
        HANDSHAKE,
        CONNECTING,
        CREATING_STREAM,
        PUBLISH_REQUESTED,
        PUBLISHING,
        UNPUBLISHED
    }

    private final Target target;
    private final ClientHandshake handshake;
    private Phase phase = Phase.HANDSHAKE;
    private int streamId;
    private long commandDeadlineNs = NO_DEADLINE;
    private String awaiting = "";
    private long videoFrames;
    private long keyframes;
    private long audioFrames;

    /** Starts the handshake: C0 and C1 are queued at once. */
    public RtmpClientSession(
            RtmpSettings settings, Target target, HandshakeScheme scheme, RandomGenerator random, long nowNs) {
        super(settings, random, nowNs);
        this.target = target;
        this.handshake = new ClientHandshake(scheme);
        ByteWriter c0c1 = new ByteWriter(1537);
        handshake.start(c0c1, random);
        queueRaw(c0c1);
    }

    /** Whether media may be sent now: publishing, and the peer is not too far behind in acknowledging. */
    public boolean canSend() {
        return phase == Phase.PUBLISHING && !isClosed() && unacknowledgedBytes() <= settings.maxUnacknowledgedBytes();
    }

    public boolean publishing() {
        return phase == Phase.PUBLISHING && !isClosed();
    }

    /** The scheme S1 was signed with, and whether S2 answered C1 correctly. */
    public HandshakeScheme serverHandshakeScheme() {
        return handshake.serverScheme();
    }

    public boolean serverHandshakeVerified() {
        return handshake.serverResponseVerified();
    }

    /** {@code @setDataFrame onMetaData} with these properties. Returns false if not sent. */
    public boolean sendMetadata(Map<String, AmfValue> properties) {
        if (!canSend()) {
            return false;
        }
        body.clear();
        Amf0Writer.string(body, "@setDataFrame");
        Amf0Writer.string(body, "onMetaData");
        Amf0Writer.write(body, new AmfEcmaArray(properties));
        sendBody(STATUS_CSID, MessageType.DATA_AMF0, streamId, 0);
        return true;
    }

    /** The sequence header of a track, at {@code timestampMs}. Returns false if not sent. */
    public boolean sendConfig(CodecConfig config, long timestampMs) {
        if (!canSend()) {
            return false;
        }
        body.clear();
        FlvTags.writeConfig(body, config);
        sendBody(csid(config.track()), FlvTags.messageType(config.track()), streamId, timestampMs);
        return true;
    }

    /** One access unit; its DTS in milliseconds is the message timestamp. Returns false if not sent. */
    public boolean sendAccessUnit(AccessUnit unit) {
        if (!canSend()) {
            return false;
        }
        body.clear();
        FlvTags.writeAccessUnit(body, unit);
        sendBody(csid(unit.track()), FlvTags.messageType(unit.track()), streamId, MediaTime.toMillis(unit.dts()));
        if (unit.track() == TrackType.VIDEO) {
            videoFrames++;
            if (unit.keyframe()) {
                keyframes++;
            }
        } else {
            audioFrames++;
        }
        return true;
    }

    /**
     * One FLV tag as it is ({@link FlvTags#TAG_AUDIO}, {@link FlvTags#TAG_VIDEO} or
     * {@link FlvTags#TAG_SCRIPT}), for replaying a file. Returns false if not sent.
     */
    public boolean sendTag(int tagType, long timestampMs, byte[] data, int offset, int length) {
        if (!canSend()) {
            return false;
        }
        int csid = switch (tagType) {
            case FlvTags.TAG_AUDIO -> AUDIO_CSID;
            case FlvTags.TAG_VIDEO -> VIDEO_CSID;
            case FlvTags.TAG_SCRIPT -> STATUS_CSID;
            default -> throw new IllegalArgumentException("FLV tag type " + tagType);
        };
        send(csid, tagType, streamId, timestampMs, data, offset, length);
        return true;
    }

    /** Ends the publish (FCUnpublish, deleteStream) and closes the session once that is written. */
    public void unpublish(long nowNs) {
        this.nowNs = nowNs;
        if (isClosed()) {
            return;
        }
        if (phase == Phase.PUBLISHING || phase == Phase.PUBLISH_REQUESTED) {
            sendCommand(COMMAND_CSID, 0, "FCUnpublish", 6, AmfNull.NULL, AmfValue.of(target.streamName()));
            sendCommand(STREAM_CSID, 0, "deleteStream", 7, AmfNull.NULL, AmfValue.of(streamId));
        }
        phase = Phase.UNPUBLISHED;
        close(CloseReason.LOCAL_CLOSE, "unpublished");
    }

    private static int csid(TrackType track) {
        return track == TrackType.VIDEO ? VIDEO_CSID : AUDIO_CSID;
    }

    // ---- handshake and commands ------------------------------------------------------------

    @Override
    boolean handshake(ByteBuffer src, ByteWriter out) throws RtmpException {
        return handshake.consume(src, out, random);
    }

    @Override
    int handshakeBytesRead() {
        return handshake.bytesRead();
    }

    @Override
    void onHandshakeDone() {
        sendChunkSize(settings.outgoingChunkSizeBytes());
        sendCommand(
                COMMAND_CSID,
                0,
                "connect",
                CONNECT_TID,
                AmfObject.of(
                        "app", target.app(), "type", "nonprivate", "flashVer", FLASH_VERSION, "tcUrl", target.tcUrl()));
        await(Phase.CONNECTING, "connect");
    }

    private void await(Phase next, String command) {
        phase = next;
        awaiting = command;
        commandDeadlineNs = nowNs + settings.commandTimeoutNs();
    }

    @Override
    void onCommand(int messageStreamId, Command command) {
        switch (command.name()) {
            case "_result" -> result(command);
            case "_error" -> {
                double tid = command.transactionId();
                if (tid == CONNECT_TID || tid == CREATE_STREAM_TID || tid == PUBLISH_TID) {
                    AmfObject info = command.objectArgument(0);
                    refused(
                            info == null ? NetStatus.CALL_FAILED : info.string("code"),
                            info == null ? "error" : info.string("description"));
                }
                // releaseStream and FCPublish errors are common and harmless (nginx-rtmp sends none).
            }
            case "onStatus" -> {
                AmfObject info = command.objectArgument(0);
                String code = info == null ? null : info.string("code");
                String level = info == null ? null : info.string("level");
                if (NetStatus.PUBLISH_START.equals(code) && phase == Phase.PUBLISH_REQUESTED) {
                    phase = Phase.PUBLISHING;
                    commandDeadlineNs = NO_DEADLINE;
                    event(new PublishStarted(target.streamName()));
                } else if (NetStatus.LEVEL_ERROR.equals(level)) {
                    refused(code, info.string("description"));
                }
            }
            default -> {
                // onBWDone, onFCPublish and other courtesies.
            }
        }
    }

    private void result(Command command) {
        if (phase == Phase.CONNECTING && command.transactionId() == CONNECT_TID) {
            AmfObject info = command.objectArgument(0);
            if (info != null && NetStatus.LEVEL_ERROR.equals(info.string("level"))) {
                refused(info.string("code"), info.string("description"));
                return;
            }
            event(new Connected(target.app(), target.tcUrl(), FLASH_VERSION));
            sendWindowAckSize(settings.windowAckSizeBytes());
            AmfValue name = AmfValue.of(target.streamName());
            sendCommand(COMMAND_CSID, 0, "releaseStream", 2, AmfNull.NULL, name);
            sendCommand(COMMAND_CSID, 0, "FCPublish", 3, AmfNull.NULL, name);
            sendCommand(COMMAND_CSID, 0, "createStream", CREATE_STREAM_TID, AmfNull.NULL);
            await(Phase.CREATING_STREAM, "createStream");
        } else if (phase == Phase.CREATING_STREAM && command.transactionId() == CREATE_STREAM_TID) {
            streamId = (int) command.numberArgument(0, 1);
            sendCommand(
                    STREAM_CSID,
                    streamId,
                    "publish",
                    PUBLISH_TID,
                    AmfNull.NULL,
                    AmfValue.of(target.streamName()),
                    AmfValue.of("live"));
            await(Phase.PUBLISH_REQUESTED, "publish");
        }
    }

    private void refused(String code, String description) {
        event(new PublishRefused(code, description));
        close(CloseReason.PUBLISH_REFUSED, "server refused: " + code + " (" + description + ")");
    }

    @Override
    void onData(int messageStreamId, List<AmfValue> values) {
        // A publisher is not sent data messages worth reading.
    }

    @Override
    void onMedia(int typeId, int messageStreamId, long timestamp, byte[] payload, int offset, int length) {
        droppedMessages++;
    }

    // ---- timers and the end ----------------------------------------------------------------

    @Override
    long sessionDeadlineNs() {
        return commandDeadlineNs;
    }

    @Override
    void sessionTimeout(long nowNs) {
        if (nowNs >= commandDeadlineNs) {
            close(
                    CloseReason.COMMAND_TIMEOUT,
                    "no answer to " + awaiting + " within " + millis(settings.commandTimeoutNs()) + " ms");
        }
    }

    @Override
    String peerClosedDetail() {
        return phase == Phase.PUBLISHING ? "server closed the connection while publishing" : "server closed";
    }

    @Override
    void onClosing(CloseReason reason, String detail) {
        commandDeadlineNs = NO_DEADLINE;
    }

    @Override
    long videoFrames() {
        return videoFrames;
    }

    @Override
    long keyframes() {
        return keyframes;
    }

    @Override
    long audioFrames() {
        return audioFrames;
    }

    @Override
    long discontinuities() {
        return 0;
    }
}
