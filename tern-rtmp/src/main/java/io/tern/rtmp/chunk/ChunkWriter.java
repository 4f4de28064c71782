package io.tern.rtmp.chunk;

import io.tern.rtmp.bytes.ByteWriter;

/**
 * Cuts outgoing messages into chunks (RTMP specification 1.0, §5.3), with the smallest header
 * each chunk stream allows: type 0 for a stream's first message, a new message stream or a
 * timestamp that goes back; type 1 when length or type change; type 2 when only the timestamp
 * delta changes; type 3 for a message like the previous one, and for every continuation chunk.
 * A type 3 header never follows a type 0 header for a new message, since peers disagree on what
 * delta it implies.
 */
public final class ChunkWriter {
    private static final int EXTENDED_TIMESTAMP = 0xFFFFFF;

    private final OutgoingStream[] streams = new OutgoingStream[64];
    private OutgoingStream[] highStreams = new OutgoingStream[0];
    private int chunkSize = ChunkReader.DEFAULT_CHUNK_SIZE;

    /** Takes effect for the messages written after the Set Chunk Size message that announced it. */
    public void setChunkSize(int bytes) {
        if (bytes < 1 || bytes > ChunkReader.MAX_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size " + bytes);
        }
        chunkSize = bytes;
    }

    public int chunkSize() {
        return chunkSize;
    }

    /**
     * Appends {@code payload[offset, offset + length)} as one message to {@code out}.
     *
     * @param timestamp milliseconds, taken modulo 2^32
     */
    public void write(
            ByteWriter out,
            int chunkStreamId,
            int typeId,
            int messageStreamId,
            long timestamp,
            byte[] payload,
            int offset,
            int length) {
        if (chunkStreamId < 2 || chunkStreamId > 65599) {
            throw new IllegalArgumentException("chunk stream id " + chunkStreamId);
        }
        if (length > 0xFFFFFF) {
            throw new IllegalArgumentException("message of " + length + " bytes");
        }
        long ts = timestamp & 0xFFFFFFFFL;
        OutgoingStream s = stream(chunkStreamId);
        int format;
        long field;
        if (!s.known || s.messageStreamId != messageStreamId || ts < s.timestamp) {
            format = 0;
            field = ts;
        } else {
            long delta = ts - s.timestamp;
            if (s.length != length || s.typeId != typeId) {
                format = 1;
            } else if (!s.deltaKnown || delta != s.delta) {
                format = 2;
            } else {
                format = 3;
            }
            field = delta;
            s.delta = delta;
        }
        s.deltaKnown = format != 0;
        s.known = true;
        s.messageStreamId = messageStreamId;
        s.timestamp = ts;
        s.length = length;
        s.typeId = typeId;
        boolean extended = field >= EXTENDED_TIMESTAMP;
        if (format != 3) {
            s.extended = extended;
        }
        int written = 0;
        int chunkFormat = format;
        do {
            int n = Math.min(chunkSize, length - written);
            out.ensureSpace(18 + n);
            basicHeader(out, chunkFormat, chunkStreamId);
            if (chunkFormat < 3) {
                out.u24(extended ? EXTENDED_TIMESTAMP : (int) field);
                if (chunkFormat < 2) {
                    out.u24(length).u8(typeId);
                    if (chunkFormat == 0) {
                        out.u32le(messageStreamId);
                    }
                }
            }
            if (s.extended) {
                // Continuation chunks repeat the extended timestamp (§5.3.1.3 as errata'd, and as
                // ffmpeg, librtmp and nginx-rtmp all read it).
                out.u32(field);
            }
            out.bytes(payload, offset + written, n);
            written += n;
            chunkFormat = 3;
        } while (written < length);
    }

    /** The 1-, 2- or 3-byte basic header of a chunk (§5.3.1.1). */
    static void basicHeader(ByteWriter out, int format, int csid) {
        if (csid < 64) {
            out.u8((format << 6) | csid);
        } else if (csid < 320) {
            out.u8(format << 6).u8(csid - 64);
        } else {
            out.u8((format << 6) | 1).u8((csid - 64) & 0xFF).u8((csid - 64) >>> 8);
        }
    }

    private OutgoingStream stream(int csid) {
        if (csid < streams.length) {
            OutgoingStream s = streams[csid];
            if (s == null) {
                s = new OutgoingStream(csid);
                streams[csid] = s;
            }
            return s;
        }
        for (OutgoingStream s : highStreams) {
            if (s.id == csid) {
                return s;
            }
        }
        OutgoingStream s = new OutgoingStream(csid);
        OutgoingStream[] more = new OutgoingStream[highStreams.length + 1];
        System.arraycopy(highStreams, 0, more, 0, highStreams.length);
        more[highStreams.length] = s;
        highStreams = more;
        return s;
    }

    /** What the peer's reader remembers of one chunk stream. */
    private static final class OutgoingStream {
        final int id;
        boolean known;
        boolean deltaKnown;
        boolean extended;
        int messageStreamId;
        long timestamp;
        long delta;
        int length;
        int typeId;

        OutgoingStream(int id) {
            this.id = id;
        }
    }
}
