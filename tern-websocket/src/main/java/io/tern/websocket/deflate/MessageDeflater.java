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
            deflater = pool.acquireDeflater();
            if (huffmanOnly) {
                deflater.setStrategy(Deflater.HUFFMAN_ONLY);
            }
        }
        out.length(0);
        deflater.setInput(in, offset, length);
        while (true) {
            out.ensureWritable(Math.max(MIN_CHUNK_BYTES, (length >>> 1) + 16), Integer.MAX_VALUE - 16);
            int space = out.capacity() - out.length();
            int produced = deflater.deflate(out.array(), out.length(), space, Deflater.SYNC_FLUSH);
            out.length(out.length() + produced);
            // A flush that filled the buffer may have more to emit, and after a strategy change the JDK's
            // first call only applies the new parameters; the flush is complete once the sync marker is out.
            if (produced < space && deflater.needsInput() && endsWithSyncMarker(out)) {
                break;
            }
        }
        out.length(out.length() - TAIL_BYTES);
        // The input array belongs to the caller; do not let the Deflater keep a reference to it.
        deflater.setInput(EMPTY);
        if (noContextTakeover) {
            pool.releaseDeflater(deflater);
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
            pool.releaseDeflater(deflater);
            deflater = null;
        }
    }

    public boolean holdsDeflater() {
        return deflater != null;
    }
}
