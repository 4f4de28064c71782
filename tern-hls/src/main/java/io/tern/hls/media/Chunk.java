package io.tern.hls.media;

/**
 * One immutable run of bytes of a {@link MediaObject} (a CMAF chunk or an init segment), kept by
 * a {@link ChunkStore}: where the bytes live is the store's business (the server keeps them off
 * the heap, once, and serves every viewer from views of them). The packager that kept it
 * releases it once, when it forgets the part or segment holding it.
 */
public interface Chunk {
    /** The number of bytes. */
    int length();

    /** Copies the bytes to {@code dst} at {@code offset}; valid until {@link #release()}. */
    void copyTo(byte[] dst, int offset);

    /** A copy of the bytes, for the few readers that need an array (the recorder, tests). */
    default byte[] toArray() {
        byte[] out = new byte[length()];
        copyTo(out, 0);
        return out;
    }

    /** The keeper's one release: the bytes may be freed once nothing else still reads them. */
    void release();
}
