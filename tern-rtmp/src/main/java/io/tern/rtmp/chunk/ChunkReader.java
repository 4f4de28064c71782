package io.tern.rtmp.chunk;

import io.tern.rtmp.CloseReason;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.bytes.BigEndian;
import java.nio.ByteBuffer;

/**
 * Reassembles RTMP messages from chunks (RTMP specification 1.0, §5.3). Incremental: any split of
 * the input gives the same messages, and a header cut across reads is gathered in an 18-byte
 * array. Payload bytes are copied once, into the message buffer of their chunk stream, which is
 * reused for the stream's next message; nothing is allocated per chunk.
 *
 * <p>Bounded: a message longer than {@code maxMessageBytes}, more than {@code maxChunkStreams}
 * chunk streams, or assembly buffers over {@code maxBufferedBytes} in total end the session. A
 * buffer grows with the bytes that actually arrive, never with a length the peer only declared.
 */
public final class ChunkReader {
    /** The chunk size every connection starts with (§5.4.1). */
    public static final int DEFAULT_CHUNK_SIZE = 128;
    /** The largest chunk size Tern accepts: an RTMP message cannot be longer anyway (24-bit length). */
    public static final int MAX_CHUNK_SIZE = 16 * 1024 * 1024;

    private static final int[] MESSAGE_HEADER_BYTES = {11, 7, 3, 0};
    private static final int EXTENDED_TIMESTAMP = 0xFFFFFF;
    private static final int FIRST_BUFFER_BYTES = 256;

    /** Receives each complete message; the payload array is valid only during the call. */
    public interface MessageHandler {
        /** Returns false to stop reading (the session closed). */
        boolean onMessage(
                int chunkStreamId, int typeId, int messageStreamId, long timestamp, byte[] payload, int length)
                throws RtmpException;
    }

    private enum Phase {
        BASIC_HEADER,
        MESSAGE_HEADER,
        EXTENDED_TIMESTAMP,
        PAYLOAD
    }

    private final int maxMessageBytes;
    private final int maxChunkStreams;
    private final long maxBufferedBytes;
    private final ChunkStream[] lowStreams = new ChunkStream[64];
    private ChunkStream[] highStreams = new ChunkStream[0];
    private int streamCount;
    private long bufferedBytes;
    private int chunkSize = DEFAULT_CHUNK_SIZE;

    private Phase phase = Phase.BASIC_HEADER;
    private final byte[] header = new byte[18];
    private int headerFill;
    private int basicBytes;
    private int format;
    private ChunkStream current;
    private long timestampField;
    private boolean extended;
    private int chunkLeft;

    private final long[] chunksByFormat = new long[4];
    private long messages;

    public ChunkReader(int maxMessageBytes, int maxChunkStreams, long maxBufferedBytes) {
        this.maxMessageBytes = maxMessageBytes;
        this.maxChunkStreams = maxChunkStreams;
        this.maxBufferedBytes = maxBufferedBytes;
    }

    /** The peer's Set Chunk Size; applies from the next chunk. The caller checks the bound. */
    public void setChunkSize(int bytes) {
        if (bytes < 1 || bytes > MAX_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size " + bytes);
        }
        chunkSize = bytes;
    }

    public int chunkSize() {
        return chunkSize;
    }

    /** The peer's Abort Message: the partly received message on that chunk stream is dropped. */
    public void abort(int chunkStreamId) {
        ChunkStream stream = find(chunkStreamId);
        if (stream != null) {
            stream.inProgress = false;
            stream.received = 0;
        }
    }

    /** Chunks read with header type {@code format} (0-3). */
    public long chunks(int format) {
        return chunksByFormat[format];
    }

    public long messages() {
        return messages;
    }

    /** Bytes held by the assembly buffers of all chunk streams. */
    public long bufferedBytes() {
        return bufferedBytes;
    }

    /** Whether a message is partly received: the peer stopped in the middle of one. */
    public boolean midMessage() {
        if (phase != Phase.BASIC_HEADER || headerFill > 0) {
            return true;
        }
        for (ChunkStream s : lowStreams) {
            if (s != null && s.inProgress) {
                return true;
            }
        }
        for (ChunkStream s : highStreams) {
            if (s.inProgress) {
                return true;
            }
        }
        return false;
    }

    /** Consumes {@code src} up to its limit, handing each complete message to {@code handler}. */
    public void read(ByteBuffer src, MessageHandler handler) throws RtmpException {
        while (src.hasRemaining()) {
            switch (phase) {
                case BASIC_HEADER -> {
                    if (!basicHeader(src)) {
                        return;
                    }
                }
                case MESSAGE_HEADER -> {
                    if (!gather(src, basicBytes + MESSAGE_HEADER_BYTES[format])) {
                        return;
                    }
                    if (!messageHeader() && !startChunk(handler)) {
                        return;
                    }
                }
                case EXTENDED_TIMESTAMP -> {
                    int at = basicBytes + MESSAGE_HEADER_BYTES[format];
                    if (!gather(src, at + 4)) {
                        return;
                    }
                    timestampField = BigEndian.u32(header, at);
                    if (!startChunk(handler)) {
                        return;
                    }
                }
                case PAYLOAD -> {
                    if (!payload(src, handler)) {
                        return;
                    }
                }
            }
        }
    }

    private boolean basicHeader(ByteBuffer src) throws RtmpException {
        if (headerFill == 0) {
            header[0] = src.get();
            headerFill = 1;
            int csidField = header[0] & 0x3F;
            basicBytes = csidField == 0 ? 2 : csidField == 1 ? 3 : 1;
        }
        if (!gather(src, basicBytes)) {
            return false;
        }
        format = (header[0] & 0xFF) >>> 6;
        int csid = switch (basicBytes) {
            case 1 -> header[0] & 0x3F;
            case 2 -> 64 + (header[1] & 0xFF);
            default -> 64 + (header[1] & 0xFF) + ((header[2] & 0xFF) << 8);
        };
        current = find(csid);
        if (current == null) {
            if (format != 0) {
                throw new RtmpException(
                        CloseReason.PROTOCOL_ERROR,
                        "chunk type " + format + " on chunk stream " + csid + ", which has no type 0 header yet");
            }
            current = create(csid);
        }
        chunksByFormat[format]++;
        phase = Phase.MESSAGE_HEADER;
        return true;
    }

    /** Reads the timestamp field; returns true when an extended timestamp follows (§5.3.1.3). */
    private boolean messageHeader() {
        if (format == 3) {
            extended = current.extended;
        } else {
            timestampField = BigEndian.u24(header, basicBytes);
            extended = timestampField == EXTENDED_TIMESTAMP;
        }
        if (extended) {
            phase = Phase.EXTENDED_TIMESTAMP;
        }
        return extended;
    }

    private boolean payload(ByteBuffer src, MessageHandler handler) throws RtmpException {
        ChunkStream s = current;
        int n = Math.min(chunkLeft, src.remaining());
        ensureCapacity(s, s.received + n);
        src.get(s.buffer, s.received, n);
        s.received += n;
        chunkLeft -= n;
        if (chunkLeft > 0) {
            return true;
        }
        endChunk();
        if (s.received == s.length) {
            s.inProgress = false;
            return deliver(s, handler);
        }
        return true;
    }

    /**
     * Applies a complete chunk header (§5.3.1.2): a continuation of the stream's message, or the
     * start of a new one whose fields come from the header and the stream's previous one. Returns
     * false when a handler asked to stop.
     */
    private boolean startChunk(MessageHandler handler) throws RtmpException {
        ChunkStream s = current;
        int h = basicBytes;
        boolean continuation = format == 3 && s.inProgress;
        if (!continuation) {
            switch (format) {
                case 0 -> {
                    s.timestamp = timestampField;
                    // As ffmpeg and librtmp read it: after a type 0 header, a type 3 header that
                    // starts a new message adds the previous absolute timestamp again.
                    s.delta = timestampField;
                    s.length = BigEndian.u24(header, h + 3);
                    s.typeId = header[h + 6] & 0xFF;
                    s.messageStreamId = (header[h + 7] & 0xFF)
                            | ((header[h + 8] & 0xFF) << 8)
                            | ((header[h + 9] & 0xFF) << 16)
                            | ((header[h + 10] & 0xFF) << 24);
                    s.extended = extended;
                }
                case 1 -> {
                    s.delta = timestampField;
                    s.timestamp = (s.timestamp + s.delta) & 0xFFFFFFFFL;
                    s.length = BigEndian.u24(header, h + 3);
                    s.typeId = header[h + 6] & 0xFF;
                    s.extended = extended;
                }
                case 2 -> {
                    s.delta = timestampField;
                    s.timestamp = (s.timestamp + s.delta) & 0xFFFFFFFFL;
                    s.extended = extended;
                }
                default -> s.timestamp = (s.timestamp + s.delta) & 0xFFFFFFFFL;
            }
            if (s.length > maxMessageBytes) {
                throw new RtmpException(
                        CloseReason.LIMIT_EXCEEDED,
                        "message of " + s.length + " bytes on chunk stream " + s.id + " exceeds the limit of "
                                + maxMessageBytes);
            }
            // A new header while a message is incomplete: the peer gave that message up.
            s.inProgress = true;
            s.received = 0;
        }
        chunkLeft = Math.min(chunkSize, s.length - s.received);
        phase = Phase.PAYLOAD;
        if (chunkLeft == 0) {
            // A zero-length message: complete with its header.
            endChunk();
            s.inProgress = false;
            return deliver(s, handler);
        }
        return true;
    }

    private boolean deliver(ChunkStream s, MessageHandler handler) throws RtmpException {
        messages++;
        return handler.onMessage(s.id, s.typeId, s.messageStreamId, s.timestamp, s.buffer, s.length);
    }

    private void endChunk() {
        phase = Phase.BASIC_HEADER;
        headerFill = 0;
    }

    private boolean gather(ByteBuffer src, int target) {
        int n = Math.min(target - headerFill, src.remaining());
        src.get(header, headerFill, n);
        headerFill += n;
        return headerFill == target;
    }

    private void ensureCapacity(ChunkStream s, int needed) throws RtmpException {
        if (needed <= s.buffer.length) {
            return;
        }
        int grown = Math.min(s.length, Math.max(needed, Math.max(FIRST_BUFFER_BYTES, s.buffer.length * 2)));
        long total = bufferedBytes - s.buffer.length + grown;
        if (total > maxBufferedBytes) {
            throw new RtmpException(
                    CloseReason.LIMIT_EXCEEDED,
                    "incomplete messages would hold " + total + " bytes, over the limit of " + maxBufferedBytes);
        }
        byte[] bigger = new byte[grown];
        System.arraycopy(s.buffer, 0, bigger, 0, s.received);
        s.buffer = bigger;
        bufferedBytes = total;
    }

    private ChunkStream find(int csid) {
        if (csid < lowStreams.length) {
            return lowStreams[csid];
        }
        for (ChunkStream s : highStreams) {
            if (s.id == csid) {
                return s;
            }
        }
        return null;
    }

    private ChunkStream create(int csid) throws RtmpException {
        if (streamCount >= maxChunkStreams) {
            throw new RtmpException(
                    CloseReason.LIMIT_EXCEEDED,
                    "chunk stream " + csid + " would be more than the limit of " + maxChunkStreams);
        }
        ChunkStream s = new ChunkStream(csid);
        streamCount++;
        if (csid < lowStreams.length) {
            lowStreams[csid] = s;
        } else {
            ChunkStream[] more = new ChunkStream[highStreams.length + 1];
            System.arraycopy(highStreams, 0, more, 0, highStreams.length);
            more[highStreams.length] = s;
            highStreams = more;
        }
        return s;
    }

    /** The receiving state of one chunk stream: its last header's fields and its message buffer. */
    private static final class ChunkStream {
        final int id;
        long timestamp;
        long delta;
        int length;
        int typeId;
        int messageStreamId;
        boolean extended;
        boolean inProgress;
        int received;
        byte[] buffer = new byte[0];

        ChunkStream(int id) {
            this.id = id;
        }
    }
}
