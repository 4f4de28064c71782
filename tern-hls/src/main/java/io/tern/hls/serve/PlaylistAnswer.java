package io.tern.hls.serve;

/** How a playlist request is answered. */
public sealed interface PlaylistAnswer {
    /** 200 with {@code body} now. The array is shared with other viewers: do not modify it. */
    record Ready(byte[] body) implements PlaylistAnswer {}

    /**
     * Held: a blocking reload waiting for segment {@code msn} (part {@code part}, or -1 for the
     * whole segment), or a request arriving before there is anything to list. The answer comes
     * later as a {@link HlsEvent.PlaylistReady} or {@link HlsEvent.RequestFailed} naming {@code
     * ticket}, at the latest at {@code deadlineNs}; {@code cancel(ticket)} when the client goes.
     */
    record Wait(long ticket, long msn, long part, long deadlineNs) implements PlaylistAnswer {}

    /** {@code status} (400, 404, 503) with {@code reason} as the body. */
    record Error(int status, String reason) implements PlaylistAnswer {}
}
