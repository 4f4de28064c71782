package io.tern.hls.media;

/**
 * Something a viewer downloads: an init segment, a part or a segment. Its bytes are a sequence of
 * immutable chunks (one CMAF chunk, {@code moof}+{@code mdat}, each; the init segment is a single
 * chunk), kept once in the packager's {@link ChunkStore} and shared by every viewer: an adapter
 * serves views of them without copying.
 *
 * <p>A part that is still being written grows: {@link #chunkCount()} rises as samples arrive and
 * {@link #complete()} turns true once. The chunks already there never change, and the finished
 * object is exactly their concatenation, so bytes streamed early are the bytes served later.
 *
 * <p>Not thread-safe while growing; once {@link #complete()} is true (observed on the packager's
 * thread) the object never changes again.
 */
public interface MediaObject {
    /** The name under the stream instance's directory, e.g. {@code video-p42.m4s}. */
    String name();

    /** {@code video/mp4} or {@code audio/mp4}. */
    String contentType();

    /** Chunks available so far. */
    int chunkCount();

    /** Chunk {@code i}, {@code 0 <= i < chunkCount()}: valid while the packager serves the object. */
    Chunk chunk(int i);

    /** Bytes available so far: the sum of the chunks' lengths. */
    long sizeBytes();

    /** Whether the object is finished: no chunk will be added. */
    boolean complete();
}
