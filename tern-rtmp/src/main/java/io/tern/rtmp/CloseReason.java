package io.tern.rtmp;

/** Why an RTMP session ended; each comes with a human-readable detail. */
public enum CloseReason {
    /** The peer closed the connection (after unpublishing, or abruptly: the detail says which). */
    PEER_CLOSED,
    /** The first bytes were not an RTMP handshake (garbage, HTTP, TLS, RTMPE). */
    NOT_RTMP,
    HANDSHAKE_TIMEOUT,
    /** No complete message (no media, once publishing) for the idle timeout. */
    IDLE_TIMEOUT,
    /** Connected but not publishing within the setup timeout. */
    SETUP_TIMEOUT,
    /** The peer did not answer a command in time (client side). */
    COMMAND_TIMEOUT,
    /** Malformed chunks, messages or commands. */
    PROTOCOL_ERROR,
    /** A bound was exceeded: chunk size, message size, chunk streams, buffered bytes. */
    LIMIT_EXCEEDED,
    /** The server refused the publish (bad name, already live, not allowed). */
    PUBLISH_REFUSED,
    /** The stream uses a codec Tern does not ingest (Enhanced RTMP, non-H.264 video, non-AAC audio). */
    UNSUPPORTED_CODEC,
    /** The local side closed it (shutdown, write queue full, a decision of the application). */
    LOCAL_CLOSE
}
