package io.tern.websocket.handshake;

/**
 * The parts of an HTTP/1.1 request that the opening handshake reads (RFC 6455 §4.2.1), however the
 * request was decoded: by the transport's HTTP codec, or by {@link HttpHead} in memory.
 */
public interface HandshakeRequest {
    /** The method, e.g. "GET". */
    String method();

    /** The request-target, e.g. "/chat?room=1". */
    String target();

    /** The protocol version, e.g. "HTTP/1.1". */
    String version();

    /** The value of the named field (case-insensitive), repeated fields joined with ", ", or null. */
    String field(String name);

    /** True if the comma-separated field contains {@code token}, compared case-insensitively. */
    default boolean fieldHasToken(String name, String token) {
        String value = field(name);
        if (value == null) {
            return false;
        }
        for (String part : value.split(",")) {
            if (part.strip().equalsIgnoreCase(token)) {
                return true;
            }
        }
        return false;
    }
}
