package io.tern.hls.media;

/**
 * A {@link ChunkStore} that keeps the arrays as they are, on the heap, and counts what it holds:
 * the default for a packager without a server (tests, benchmarks). A second release of a chunk
 * fails, so tests catch a release the packager makes twice.
 */
public final class HeapChunkStore implements ChunkStore {
    private long heldBytes;
    private long heldChunks;

    /** A chunk on the heap: its array, shared as it is. */
    public final class HeapChunk implements Chunk {
        private final byte[] bytes;
        private boolean released;

        private HeapChunk(byte[] bytes) {
            this.bytes = bytes;
        }

        /** The kept array itself; do not modify. */
        public byte[] array() {
            return bytes;
        }

        public boolean released() {
            return released;
        }

        @Override
        public int length() {
            return bytes.length;
        }

        @Override
        public void copyTo(byte[] dst, int offset) {
            System.arraycopy(bytes, 0, dst, offset, bytes.length);
        }

        @Override
        public void release() {
            if (released) {
                throw new IllegalStateException("chunk of " + bytes.length + " bytes released twice");
            }
            released = true;
            heldBytes -= bytes.length;
            heldChunks--;
        }
    }

    @Override
    public Chunk keep(byte[] bytes) {
        heldBytes += bytes.length;
        heldChunks++;
        return new HeapChunk(bytes);
    }

    /** Bytes of the chunks kept and not yet released. */
    public long heldBytes() {
        return heldBytes;
    }

    /** Chunks kept and not yet released. */
    public long heldChunks() {
        return heldChunks;
    }
}
