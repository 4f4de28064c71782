package io.tern.server.config;

/** How clients authenticate. */
public enum AuthMode {
    /** {@code no-auth}: anonymous access, an open relay. */
    NONE,
    /** {@code lt-cred-mech}: RFC 8489 long-term credentials against the static users. */
    LONG_TERM,
    /**
     * {@code use-auth-secret}: TURN REST API, time-limited user names
     * ({@code expiry<separator>user}) with password {@code base64(HMAC-SHA1(secret, username))}.
     */
    REST_SECRET
}
