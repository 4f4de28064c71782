package io.tern.websocket.frame;

import org.agrona.DirectBuffer;

/**
 * The framing half of an RFC 6455 §5.2 decoder: an explicit state machine, in the manner of
 * Netty's {@code WebSocket08FrameDecoder}, that reads one frame header at a time into a 14-byte
 * array and then counts its payload off. It never holds more than one header; how much payload a
 * frame may carry is the caller's limit, checked between {@link #headerReady()} and
 * {@link #startPayload()}. It returns early whenever too few bytes are readable, so input may be
 * split anywhere.
 *
 * <p>The caller drives it: {@link #readHeader} until {@link #headerReady()}, {@link #checkHeader}
 * and its own rules, {@link #startPayload()}, then for each run of payload bytes it copies,
 * {@link #unmask} and {@link #payloadRead}, which says when the frame ended; the next call to
 * {@link #readHeader} starts the next frame. It allocates nothing.
 */
public final class FrameReader {
    /** Where the reader is within a frame; each header state waits for its bytes. */
    private enum State {
        /** FIN, RSV1-3 and the opcode. */
        READING_FIRST,
        /** MASK and the 7-bit payload length. */
        READING_SECOND,
        /** The 16- or 64-bit extended payload length, when the 7-bit one is 126 or 127. */
        READING_SIZE,
        /** The 4-byte masking key of a masked frame. */
        READING_MASKING_KEY,
        /** The header is complete; the caller checks it and calls {@link #startPayload()}. */
        HEADER_READY,
        /** Payload bytes remain. */
        READING_PAYLOAD
    }

    private final byte[] headerBytes = new byte[FrameHeader.MAX_HEADER_BYTES];
    private final FrameHeader header = new FrameHeader().wrap(headerBytes, 0);
    private State state = State.READING_FIRST;
    private int headerFill;
    private int sizeEnd;
    private int headerLength;
    private long payloadRemaining;
    private int opcode;
    private boolean fin;
    private boolean masked;
    private int maskKey;
    private int maskPhase;

    /**
     * Reads header bytes from {@code src[index, end)} until the header is complete or the input
     * ends; reads nothing while a payload is being read.
     *
     * @return how many bytes it took
     */
    public int readHeader(DirectBuffer src, int index, int end) {
        int i = index;
        while (i < end) {
            switch (state) {
                case READING_FIRST, READING_SECOND -> {
                    // The first two bytes are taken together when both are there.
                    i += fill(src, i, end, 2);
                    if (headerFill < 2) {
                        state = State.READING_SECOND;
                    } else {
                        headerLength = header.headerBytes();
                        sizeEnd = headerLength - (header.masked() ? 4 : 0);
                        state = sizeEnd > 2
                                ? State.READING_SIZE
                                : header.masked() ? State.READING_MASKING_KEY : State.HEADER_READY;
                    }
                }
                case READING_SIZE -> {
                    i += fill(src, i, end, sizeEnd);
                    if (headerFill == sizeEnd) {
                        state = header.masked() ? State.READING_MASKING_KEY : State.HEADER_READY;
                    }
                }
                case READING_MASKING_KEY -> {
                    i += fill(src, i, end, headerLength);
                    if (headerFill == headerLength) {
                        state = State.HEADER_READY;
                    }
                }
                case HEADER_READY, READING_PAYLOAD -> {
                    return i - index;
                }
            }
        }
        return i - index;
    }

    private int fill(DirectBuffer src, int index, int end, int upTo) {
        int take = Math.min(upTo - headerFill, end - index);
        src.getBytes(index, headerBytes, headerFill, take);
        headerFill += take;
        return take;
    }

    /** Whether a whole header was read and awaits {@link #startPayload()}. */
    public boolean headerReady() {
        return state == State.HEADER_READY;
    }

    /** The header read, valid from {@link #headerReady()} until the next frame's first byte. */
    public FrameHeader header() {
        return header;
    }

    /**
     * The checks of §5.2 and §5.5 that need nothing but the header, in the order a failure is
     * reported: reserved bits, the opcode, masking (§5.1: a client masks, a server does not), the
     * 64-bit length's top bit, the minimal length form, and a control frame's FIN and 125 bytes.
     *
     * @param expectMasked whether frames from the peer must be masked (true on a server)
     * @param rsv1Allowed whether RSV1 may be set (permessage-deflate on a data frame)
     * @return null when the header passes, else why it fails (a protocol error, 1002)
     */
    public String checkHeader(boolean expectMasked, boolean rsv1Allowed) {
        int frameOpcode = header.opcode();
        long payloadBytes = header.payloadBytes();
        if ((header.rsv() & ~(rsv1Allowed ? FrameHeader.RSV1 : 0)) != 0) {
            return "reserved bits set";
        }
        if (!Opcode.isKnown(frameOpcode)) {
            return "unknown opcode";
        }
        if (header.masked() != expectMasked) {
            return expectMasked ? "client frame not masked" : "server frame masked";
        }
        if (payloadBytes < 0) {
            return "payload length has its top bit set";
        }
        if (!header.hasMinimalLength()) {
            return "payload length not in its minimal form";
        }
        if (Opcode.isControl(frameOpcode) && (!header.fin() || payloadBytes > FrameHeader.MAX_CONTROL_PAYLOAD_BYTES)) {
            return "fragmented or oversized control frame";
        }
        return null;
    }

    /** The caller accepted the header: its payload follows. */
    public void startPayload() {
        opcode = header.opcode();
        fin = header.fin();
        masked = header.masked();
        maskKey = masked ? header.maskKey() : 0;
        maskPhase = 0;
        payloadRemaining = header.payloadBytes();
        state = State.READING_PAYLOAD;
    }

    /** Whether the header was accepted and payload bytes remain. */
    public boolean inPayload() {
        return state == State.READING_PAYLOAD;
    }

    /** Of {@code available} readable bytes, how many belong to this frame's payload. */
    public int payloadBytesIn(int available) {
        return state == State.READING_PAYLOAD ? (int) Math.min(payloadRemaining, available) : 0;
    }

    /**
     * {@code length} payload bytes were taken; true when that ended the frame (also for a frame
     * without payload, with {@code length} 0), after which the next header is read.
     */
    public boolean payloadRead(int length) {
        payloadRemaining -= length;
        if (payloadRemaining > 0) {
            return false;
        }
        state = State.READING_FIRST;
        headerFill = 0;
        return true;
    }

    /** Unmasks the next {@code length} payload bytes, copied to {@code buf[offset..]}, in place. */
    public void unmask(byte[] buf, int offset, int length) {
        if (masked) {
            maskPhase = Masking.mask(buf, offset, length, maskKey, maskPhase);
        }
    }

    /** The opcode of the frame whose payload is being (or was last) read. */
    public int opcode() {
        return opcode;
    }

    /** Whether the frame whose payload is being (or was last) read is a message's last. */
    public boolean fin() {
        return fin;
    }
}
