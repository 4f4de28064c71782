package io.tern.websocket.deflate;

import io.tern.websocket.frame.GrowableBytes;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses one message incrementally, frame chunk by frame chunk (RFC 7692 §7.2.2), so UTF-8
 * validation and the size limit apply as bytes arrive. Without context takeover the
 * {@link Inflater} goes back to the pool at the end of every message.
 */
public final class MessageInflater {
    /** §7.2.2: appended to the compressed payload of every message before inflating. */
    private static final byte[] TAIL = {0x00, 0x00, (byte) 0xFF, (byte) 0xFF};

    private static final byte[] EMPTY = new byte[0];
    private static final int MIN_CHUNK_BYTES = 1024;

    public enum Result {
        OK,
        TOO_BIG,
        CORRUPT
    }

    private final CodecPool pool;
    private final boolean noContextTakeover;
    private Inflater inflater;

    public MessageInflater(CodecPool pool, boolean noContextTakeover) {
        this.pool = pool;
        this.noContextTakeover = noContextTakeover;
    }

    /** Inflates a chunk of compressed payload, appending to {@code out} without exceeding {@code maxBytes}. */
    public Result inflate(byte[] in, int offset, int length, GrowableBytes out, int maxBytes) {
        if (inflater == null) {
            inflater = pool.acquireInflater();
        }
        inflater.setInput(in, offset, length);
        try {
            return drain(out, maxBytes);
        } finally {
            // The input array belongs to the caller and is reused after we return.
            inflater.setInput(EMPTY);
        }
    }

    /** Ends the message: feeds the implicit tail and, without context takeover, returns the inflater. */
    public Result finish(GrowableBytes out, int maxBytes) {
        Result result =
                inflater != null && inflater.finished() ? Result.OK : inflate(TAIL, 0, TAIL.length, out, maxBytes);
        if (noContextTakeover || inflater.finished()) {
            // A peer may end a message with a final block; the next message then starts a fresh stream.
            endMessage();
        }
        return result;
    }

    private Result drain(GrowableBytes out, int maxBytes) {
        try {
            while (!inflater.finished()) {
                if (!out.ensureWritable(1, maxBytes + 1)) {
                    return Result.TOO_BIG;
                }
                // Grow in sensible steps but never beyond one byte past the limit, so that byte proves the overflow.
                out.ensureWritable(Math.min(MIN_CHUNK_BYTES, maxBytes + 1 - out.length()), maxBytes + 1);
                int space = out.capacity() - out.length();
                int produced = inflater.inflate(out.array(), out.length(), space);
                out.length(out.length() + produced);
                if (out.length() > maxBytes) {
                    return Result.TOO_BIG;
                }
                if (produced == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
            }
            if (inflater.finished() && inflater.getRemaining() > 0) {
                return Result.CORRUPT;
            }
            return inflater.needsDictionary() ? Result.CORRUPT : Result.OK;
        } catch (DataFormatException e) {
            return Result.CORRUPT;
        }
    }

    private void endMessage() {
        if (inflater != null) {
            pool.releaseInflater(inflater);
            inflater = null;
        }
    }

    /** Returns any held inflater to the pool; call when the connection ends. */
    public void release() {
        endMessage();
    }
}
