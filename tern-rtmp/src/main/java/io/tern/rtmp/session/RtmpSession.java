package io.tern.rtmp.session;

import io.tern.media.MediaFormatException;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.amf.Amf0Reader;
import io.tern.rtmp.amf.Amf0Writer;
import io.tern.rtmp.amf.AmfException;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.bytes.BigEndian;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.ChunkReader;
import io.tern.rtmp.chunk.ChunkWriter;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.command.Command;
import io.tern.rtmp.flv.FlvFile;
import io.tern.rtmp.session.RtmpEvent.Closed;
import io.tern.rtmp.session.RtmpEvent.Notice;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * What the server and the client sessions share: the handshake hand-off, the chunk layer,
 * protocol control and user control messages, acknowledgements, the output queue, events and
 * timers. Sans-IO: the caller feeds bytes with {@link #onBytes}, calls {@link #onTimeout} when
 * {@link #nextDeadlineNs()} has passed and {@link #onPeerClosed} when the connection ends, and
 * after each of these drains {@link #drainWrites} and {@link #pollEvent} until both are empty.
 * Nothing here reads a clock, owns a thread or calls out of the engine.
 *
 * <p>Not thread-safe: one session belongs to one event loop.
 */
public abstract sealed class RtmpSession permits RtmpServerSession, RtmpClientSession {
    static final int CONTROL_CSID = 2;
    static final int COMMAND_CSID = 3;
    static final int AUDIO_CSID = 4;
    static final int STATUS_CSID = 5;
    static final int VIDEO_CSID = 6;
    /** Notices one session queues at most; later drops are only counted in its stats. */
    public static final int MAX_NOTICES = 32;

    static final int STREAM_CSID = 8;

    /** User control event types (RTMP specification 1.0, §7.1.7). */
    static final int STREAM_BEGIN = 0;

    static final int PING_REQUEST = 6;
    static final int PING_RESPONSE = 7;

    static final long NO_DEADLINE = Long.MAX_VALUE;

    final RtmpSettings settings;
    final RandomGenerator random;
    final ChunkReader reader;
    final ChunkWriter writer = new ChunkWriter();
    private final ByteWriter out = new ByteWriter(4096);
    /** Scratch space for one outgoing message body. */
    final ByteWriter body = new ByteWriter(512);

    private final ArrayDeque<RtmpEvent> events = new ArrayDeque<>();
    private final ChunkReader.MessageHandler handler = this::onMessage;

    private boolean handshakeDone;
    private final long handshakeDeadlineNs;
    private boolean closed;
    private CloseReason closeReason;
    long nowNs;
    long lastMessageNs;

    private long bytesIn;
    private long bytesOut;
    private long chunkBytesIn;
    private long chunkBytesOut;
    private long peerWindowBytes;
    private long lastAckSentAt;
    private long acknowledgedSequence;
    private boolean peerAcknowledges;
    private long announcedWindowBytes;
    private long acknowledgementsSent;
    private long acknowledgementsReceived;
    long droppedMessages;
    private int noticesQueued;

    RtmpSession(RtmpSettings settings, RandomGenerator random, long nowNs) {
        this.settings = settings;
        this.random = random;
        this.reader =
                new ChunkReader(settings.maxMessageBytes(), settings.maxChunkStreams(), settings.maxBufferedBytes());
        this.nowNs = nowNs;
        this.handshakeDeadlineNs = nowNs + settings.handshakeTimeoutNs();
    }

    // ---- inputs ----------------------------------------------------------------------------

    /** Bytes received from the peer, from {@code src}'s position to its limit; all are consumed. */
    public final void onBytes(ByteBuffer src, long nowNs) {
        this.nowNs = nowNs;
        int length = src.remaining();
        bytesIn += length;
        if (closed) {
            src.position(src.limit());
            return;
        }
        try {
            if (!handshakeDone) {
                int before = out.length();
                boolean done = handshake(src, out);
                bytesOut += out.length() - before;
                if (!done) {
                    return;
                }
                handshakeDone = true;
                lastMessageNs = nowNs;
                onHandshakeDone();
            }
            int start = src.position();
            reader.read(src, handler);
            chunkBytesIn += src.position() - start;
            acknowledge();
        } catch (RtmpException e) {
            close(e.reason(), e.getMessage());
        }
        src.position(src.limit());
    }

    public final void onBytes(byte[] bytes, int offset, int length, long nowNs) {
        onBytes(ByteBuffer.wrap(bytes, offset, length), nowNs);
    }

    /** Call when {@link #nextDeadlineNs()} has passed (calling earlier is harmless). */
    public final void onTimeout(long nowNs) {
        this.nowNs = nowNs;
        if (closed) {
            return;
        }
        if (!handshakeDone) {
            if (nowNs >= handshakeDeadlineNs) {
                close(
                        CloseReason.HANDSHAKE_TIMEOUT,
                        "handshake not complete after " + millis(settings.handshakeTimeoutNs()) + " ms ("
                                + handshakeBytesRead() + " bytes of it received)");
            }
            return;
        }
        sessionTimeout(nowNs);
    }

    /** The connection ended (end of stream or reset). */
    public final void onPeerClosed(long nowNs) {
        this.nowNs = nowNs;
        if (closed) {
            return;
        }
        String detail;
        if (!handshakeDone) {
            detail = "peer closed during the handshake, after " + handshakeBytesRead() + " bytes";
        } else if (reader.midMessage()) {
            detail = "peer closed in the middle of a message";
        } else {
            detail = peerClosedDetail();
        }
        close(CloseReason.PEER_CLOSED, detail);
    }

    /** Ends the session from this side (shutdown, a full write queue); queued bytes may still be written. */
    public final void close(String detail, long nowNs) {
        this.nowNs = nowNs;
        close(CloseReason.LOCAL_CLOSE, detail);
    }

    /**
     * Announces a new chunk size for what this side sends (Set Chunk Size) and writes with it from
     * the next message on. Only after the handshake.
     */
    public final void setChunkSize(int bytes) {
        if (!handshakeDone || closed) {
            throw new IllegalStateException("chunk size can change only on an open session after the handshake");
        }
        sendChunkSize(bytes);
    }

    // ---- outputs ---------------------------------------------------------------------------

    /** The earliest time {@link #onTimeout} has work to do, or {@link Long#MAX_VALUE}. */
    public final long nextDeadlineNs() {
        if (closed) {
            return NO_DEADLINE;
        }
        return handshakeDone ? sessionDeadlineNs() : handshakeDeadlineNs;
    }

    public final int pendingWriteBytes() {
        return out.length();
    }

    /** Hands every queued byte to {@code sink}, oldest first, and forgets them. */
    public final void drainWrites(WriteSink sink) {
        if (out.length() > 0) {
            sink.write(out.array(), 0, out.length());
            out.clear();
        }
    }

    /** The next event, or null. */
    public final RtmpEvent pollEvent() {
        return events.poll();
    }

    public final boolean isClosed() {
        return closed;
    }

    /** Why the session closed, or null while it is open. */
    public final CloseReason closeReason() {
        return closeReason;
    }

    public final RtmpStats stats() {
        long[] chunks = {reader.chunks(0), reader.chunks(1), reader.chunks(2), reader.chunks(3)};
        return new RtmpStats(
                bytesIn,
                bytesOut,
                reader.messages(),
                chunks,
                videoFrames(),
                keyframes(),
                audioFrames(),
                droppedMessages,
                discontinuities(),
                acknowledgementsSent,
                acknowledgementsReceived,
                unacknowledgedBytes(),
                reader.bufferedBytes());
    }

    /** Bytes sent that the peer has not acknowledged; 0 if it never acknowledged anything. */
    public final long unacknowledgedBytes() {
        return peerAcknowledges ? (chunkBytesOut - acknowledgedSequence) & 0xFFFFFFFFL : 0;
    }

    // ---- for the subclasses ----------------------------------------------------------------

    abstract boolean handshake(ByteBuffer src, ByteWriter out) throws RtmpException;

    abstract int handshakeBytesRead();

    abstract void onHandshakeDone();

    abstract void onCommand(int messageStreamId, Command command) throws RtmpException;

    abstract void onData(int messageStreamId, List<AmfValue> values);

    /** An audio or video message whose tag body is {@code payload[offset, offset + length)}. */
    abstract void onMedia(int typeId, int messageStreamId, long timestamp, byte[] payload, int offset, int length)
            throws RtmpException;

    abstract long sessionDeadlineNs();

    abstract void sessionTimeout(long nowNs);

    /** The detail of a peer close outside the handshake and outside a message. */
    abstract String peerClosedDetail();

    /** Runs once, before the {@link Closed} event is queued. */
    abstract void onClosing(CloseReason reason, String detail);

    abstract long videoFrames();

    abstract long keyframes();

    abstract long audioFrames();

    abstract long discontinuities();

    final void event(RtmpEvent event) {
        events.add(event);
    }

    /**
     * Queues a notice, up to {@link #MAX_NOTICES} per session: a corrupt or hostile stream can make
     * every message a drop, and those are already counted in the stats, so later ones queue nothing.
     */
    final void notice(String detail) {
        if (noticesQueued < MAX_NOTICES) {
            noticesQueued++;
            events.add(new Notice(detail));
        }
    }

    final void close(CloseReason reason, String detail) {
        if (closed) {
            return;
        }
        closed = true;
        closeReason = reason;
        onClosing(reason, detail);
        events.add(new Closed(reason, detail));
    }

    /** Queues bytes outside the chunk layer: the handshake. */
    final void queueRaw(ByteWriter raw) {
        out.bytes(raw.array(), 0, raw.length());
        bytesOut += raw.length();
    }

    /** Sends {@link #body} as one message. */
    final void sendBody(int csid, int typeId, int messageStreamId, long timestamp) {
        send(csid, typeId, messageStreamId, timestamp, body.array(), 0, body.length());
    }

    final void send(int csid, int typeId, int messageStreamId, long timestamp, byte[] payload, int offset, int length) {
        int before = out.length();
        writer.write(out, csid, typeId, messageStreamId, timestamp, payload, offset, length);
        int written = out.length() - before;
        bytesOut += written;
        chunkBytesOut += written;
    }

    /** A command message: name, transaction id, then the values (the command object first). */
    final void sendCommand(int csid, int messageStreamId, String name, double transactionId, AmfValue... values) {
        body.clear();
        Amf0Writer.string(body, name);
        Amf0Writer.number(body, transactionId);
        for (AmfValue v : values) {
            Amf0Writer.write(body, v);
        }
        sendBody(csid, MessageType.COMMAND_AMF0, messageStreamId, 0);
    }

    final void sendControl(int typeId, long value) {
        body.clear();
        body.u32(value);
        sendBody(CONTROL_CSID, typeId, 0, 0);
    }

    final void sendChunkSize(int bytes) {
        sendControl(MessageType.SET_CHUNK_SIZE, bytes);
        writer.setChunkSize(bytes);
    }

    final void sendWindowAckSize(long bytes) {
        announcedWindowBytes = bytes;
        sendControl(MessageType.WINDOW_ACK_SIZE, bytes);
    }

    final void sendPeerBandwidth(long bytes) {
        body.clear();
        body.u32(bytes).u8(2); // limit type 2: dynamic
        sendBody(CONTROL_CSID, MessageType.SET_PEER_BANDWIDTH, 0, 0);
    }

    final void sendUserControl(int eventType, long value) {
        body.clear();
        body.u16(eventType).u32(value);
        sendBody(CONTROL_CSID, MessageType.USER_CONTROL, 0, 0);
    }

    static long millis(long ns) {
        return TimeUnit.NANOSECONDS.toMillis(ns);
    }

    // ---- the message layer -----------------------------------------------------------------

    private boolean onMessage(int csid, int typeId, int streamId, long timestamp, byte[] payload, int length)
            throws RtmpException {
        lastMessageNs = nowNs;
        switch (typeId) {
            case MessageType.SET_CHUNK_SIZE -> setChunkSize(payload, length);
            case MessageType.ABORT -> {
                if (length >= 4) {
                    reader.abort((int) Math.min(BigEndian.u32(payload, 0), Integer.MAX_VALUE));
                }
            }
            case MessageType.ACKNOWLEDGEMENT -> {
                if (length >= 4) {
                    acknowledgedSequence = BigEndian.u32(payload, 0);
                    peerAcknowledges = true;
                    acknowledgementsReceived++;
                }
            }
            case MessageType.USER_CONTROL -> userControl(payload, length);
            case MessageType.WINDOW_ACK_SIZE -> {
                if (length >= 4) {
                    peerWindowBytes = BigEndian.u32(payload, 0);
                }
            }
            case MessageType.SET_PEER_BANDWIDTH -> {
                // §5.4.5: answer with our window when it differs from the last one we announced.
                if (length >= 4) {
                    long window = BigEndian.u32(payload, 0);
                    if (window > 0 && window != announcedWindowBytes) {
                        sendWindowAckSize(window);
                    }
                }
            }
            case MessageType.COMMAND_AMF0 -> command(streamId, payload, 0, length);
            case MessageType.COMMAND_AMF3 -> command(streamId, payload, amf3Skip(payload, length, "command"), length);
            case MessageType.DATA_AMF0 -> data(streamId, payload, 0, length);
            case MessageType.DATA_AMF3 -> data(streamId, payload, amf3Skip(payload, length, "data message"), length);
            case MessageType.AUDIO, MessageType.VIDEO -> onMedia(typeId, streamId, timestamp, payload, 0, length);
            case MessageType.AGGREGATE -> aggregate(streamId, timestamp, payload, length);
            default -> {
                droppedMessages++;
                notice("message type " + typeId + " ignored");
            }
        }
        return !closed;
    }

    private void setChunkSize(byte[] payload, int length) throws RtmpException {
        if (length < 4) {
            throw new RtmpException(CloseReason.PROTOCOL_ERROR, "Set Chunk Size message of " + length + " bytes");
        }
        long value = BigEndian.u32(payload, 0);
        if (value > settings.maxChunkSizeBytes()) {
            throw new RtmpException(
                    CloseReason.LIMIT_EXCEEDED,
                    "peer set chunk size " + value + ", over the limit of " + settings.maxChunkSizeBytes() + " bytes");
        }
        if (value == 0) {
            throw new RtmpException(CloseReason.PROTOCOL_ERROR, "peer set chunk size 0");
        }
        reader.setChunkSize((int) value);
    }

    private void userControl(byte[] payload, int length) {
        if (length < 2) {
            droppedMessages++;
            notice("user control message of " + length + " bytes");
            return;
        }
        int eventType = BigEndian.u16(payload, 0);
        if (eventType == PING_REQUEST && length >= 6) {
            sendUserControl(PING_RESPONSE, BigEndian.u32(payload, 2));
        }
        // Stream Begin/EOF/Dry, Set Buffer Length, Is Recorded and Ping Response need no answer.
    }

    /** AMF3 commands and data messages start with a format byte; 0 means AMF0 follows, as FMS reads them. */
    private static int amf3Skip(byte[] payload, int length, String what) throws RtmpException {
        if (length == 0 || payload[0] != 0) {
            throw new RtmpException(
                    CloseReason.PROTOCOL_ERROR, "AMF3-encoded " + what + ", which Tern does not decode");
        }
        return 1;
    }

    private void command(int streamId, byte[] payload, int offset, int end) throws RtmpException {
        List<AmfValue> values;
        try {
            values = Amf0Reader.readAll(payload, offset, end - offset);
        } catch (AmfException e) {
            throw new RtmpException(CloseReason.PROTOCOL_ERROR, "malformed command: " + e.getMessage());
        }
        Command command = Command.of(values);
        if (command == null) {
            throw new RtmpException(CloseReason.PROTOCOL_ERROR, "command message without a command name");
        }
        onCommand(streamId, command);
    }

    private void data(int streamId, byte[] payload, int offset, int end) {
        try {
            onData(streamId, Amf0Reader.readAll(payload, offset, end - offset));
        } catch (AmfException e) {
            droppedMessages++;
            notice("malformed data message dropped: " + e.getMessage());
        }
    }

    /** An aggregate message (§7.1.6): FLV tags whose timestamps are relative to the first one's. */
    private void aggregate(int streamId, long timestamp, byte[] payload, int length) throws RtmpException {
        long[] firstTimestamp = {-1};
        try {
            FlvFile.readTags(payload, 0, length, (type, tagTimestamp, buf, offset, size) -> {
                if (closed) {
                    return;
                }
                if (firstTimestamp[0] < 0) {
                    firstTimestamp[0] = tagTimestamp;
                }
                long ts = (timestamp + tagTimestamp - firstTimestamp[0]) & 0xFFFFFFFFL;
                if (type == MessageType.AUDIO || type == MessageType.VIDEO) {
                    onMedia(type, streamId, ts, buf, offset, size);
                } else if (type == MessageType.DATA_AMF0) {
                    data(streamId, buf, offset, offset + size);
                }
            });
        } catch (MediaFormatException e) {
            droppedMessages++;
            notice("malformed aggregate message dropped: " + e.getMessage());
        }
    }

    /** Sends an Acknowledgement once the peer's window of bytes has arrived since the last one (§5.4.3). */
    private void acknowledge() {
        if (peerWindowBytes > 0 && chunkBytesIn - lastAckSentAt >= peerWindowBytes && !closed) {
            lastAckSentAt = chunkBytesIn;
            acknowledgementsSent++;
            sendControl(MessageType.ACKNOWLEDGEMENT, chunkBytesIn & 0xFFFFFFFFL);
        }
    }
}
