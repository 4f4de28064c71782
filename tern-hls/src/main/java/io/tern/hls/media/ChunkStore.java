package io.tern.hls.media;

/**
 * Where a packager keeps its media bytes: the packager makes each chunk once as an array, hands it
 * to {@link #keep} and drops the array, and releases the returned {@link Chunk} when the chunk
 * leaves its window. Called on the packager's thread.
 */
public interface ChunkStore {
    /** Keeps {@code bytes}, which the caller does not touch again. */
    Chunk keep(byte[] bytes);
}
