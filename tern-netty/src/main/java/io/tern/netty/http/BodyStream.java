package io.tern.netty.http;

import io.netty.buffer.ByteBuf;

/**
 * The body of a streamed response, written as it is produced (the preload-hinted part, written
 * sample by sample). Each write is flushed at once. Calls may come from any thread, but from one
 * thread at a time; writes from outside the event loop are handed to it in order.
 *
 * <p>When the client goes away, writes release their buffer and return false, and the exchange's
 * {@link HttpExchange#onCancel cancel} callback has run.
 */
public interface BodyStream {
    /** Writes {@code chunk} and takes ownership of it; false (and released) when the stream is over. */
    boolean write(ByteBuf chunk);

    /** Writes the shared bytes without copying them. */
    boolean write(SharedBody chunk);

    /** Ends the body. */
    void end();

    /**
     * Writes {@code last} (taking ownership of it) and ends the body, with one write and flush:
     * the last bytes and the end of a chunked body leave in one packet instead of two.
     */
    void end(ByteBuf last);

    /** Gives up: resets the HTTP/2 stream, or closes the HTTP/1.1 connection, so the client sees a cut body. */
    void abort();

    /** Whether writes still go to the client. */
    boolean isOpen();
}
