package io.tern.netty.hls;

/**
 * What a {@link PackagerDriver} counts as it serves, for the server's metrics. Called on the
 * stream's loop; an implementation shared by many streams must take writes from many loops.
 */
public interface ServingCounters {
    /** A response of {@code kind} answered, with {@code bytes} of body so far. */
    void served(Served kind, long bytes);

    /** Bytes of a streamed answer written after its response was counted. */
    void servedBytes(Served kind, long bytes);

    /** Requests held now changed by {@code delta}. */
    void heldDelta(int delta);

    /** A held request ended in 503: what it waited for did not come before the packager's deadline. */
    void heldRequestTimedOut();
}
