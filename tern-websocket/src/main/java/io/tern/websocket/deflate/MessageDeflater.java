package io.tern.websocket.deflate;

import io.tern.websocket.frame.GrowableBytes;
import java.util.zip.Deflater;

/**
 * Compresses one message at a time (RFC 7692 §7.2.1): deflate with a sync flush, then drop the
 * trailing {@code 00 00 FF FF}. Without context takeover the {@link Deflater} goes back to the pool
 * after every message, so an idle connection holds none.
 */
public final class MessageDeflater {
    private static final int TAIL_BYTES = 4;
    private static final int MIN_CHUNK_BYTES = 64;
    private static final byte[] EMPTY = new byte[0];

    private final CodecPool pool;
    private final boolean noContextTakeover;
    private final boolean huffmanOnly;
    private Deflater deflater;

    /**
     * @param maxWindowBits the window the peer allows us; below 15, compression is Huffman-only
     *        because java.util.zip cannot shrink the LZ77 window
     */
    public MessageDeflater(CodecPool pool, boolean noContextTakeover, int maxWindowBits) {
        this.pool = pool;
        this.noContextTakeover = noContextTakeover;
        this.huffmanOnly = maxWindowBits < DeflateParameters.MAX_WINDOW_BITS;
    }

    /** Compresses {@code in[offset, offset+length)} into {@code out}, replacing its contents. */
    public void compress(byte[] in, int offset, int length, GrowableBytes out) {
        if (deflater == null) {
            deflater = pool.acquireDeflater(huffmanOnly);
        }
        out.length(0);
        deflater.setInput(in, offset, length);
        int space;
        int produced;
        do {
            out.ensureWritable(Math.max(MIN_CHUNK_BYTES, (length >>> 1) + 16), Integer.MAX_VALUE - 16);
            space = out.capacity() - out.length();
            produced = deflater.deflate(out.array(), out.length(), space, Deflater.SYNC_FLUSH);
            out.length(out.length() + produced);
        } while (produced == space);
        // The input array belongs to the caller; do not let the Deflater keep a reference to it.
        deflater.setInput(EMPTY);
        if (endsWithSyncMarker(out)) {
            out.length(out.length() - TAIL_BYTES);
        } else if (out.length() == 0) {
            // zlib emits nothing for an empty message right after a flush; §7.2.3.6 sends one empty
            // stored block, which is 0x00 once the tail is removed.
            out.array()[0] = 0;
            out.length(1);
        } else {
            throw new IllegalStateException("deflate output did not end in a sync flush");
        }
        if (noContextTakeover) {
            pool.releaseDeflater(deflater, huffmanOnly);
            deflater = null;
        }
    }

    private static boolean endsWithSyncMarker(GrowableBytes out) {
        int n = out.length();
        byte[] a = out.array();
        return n >= TAIL_BYTES && a[n - 4] == 0 && a[n - 3] == 0 && a[n - 2] == (byte) 0xFF && a[n - 1] == (byte) 0xFF;
    }

    /** Returns any held deflater to the pool; call when the connection ends. */
    public void release() {
        if (deflater != null) {
            pool.releaseDeflater(deflater, huffmanOnly);
            deflater = null;
        }
    }
}
