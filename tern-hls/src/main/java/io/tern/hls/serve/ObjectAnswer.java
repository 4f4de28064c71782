package io.tern.hls.serve;

import io.tern.hls.media.MediaObject;

/** How a request for an init segment, a part or a segment is answered. */
public sealed interface ObjectAnswer {
    /** A complete, immutable object: send all its chunks. */
    record Found(MediaObject object) implements ObjectAnswer {}

    /**
     * The preload-hinted part, still being written. With {@code streaming}, send the chunks
     * available now and then each {@link HlsEvent.PartProgress} for {@code ticket} brings more;
     * without it, send nothing until the event that finds it complete. The bytes sent in the end
     * are exactly the finished part's. {@code cancel(ticket)} when the client goes.
     */
    record Growing(MediaObject object, long ticket, boolean streaming) implements ObjectAnswer {}

    /** 404: unknown, expired, or a part beyond the hinted one. */
    record NotFound() implements ObjectAnswer {}

    /** {@code status} with {@code reason}: 503 when too many requests are held. */
    record Error(int status, String reason) implements ObjectAnswer {}
}
