package io.tern.turn.auth;

/**
 * The outcome of looking a username up: the long-term keys to check MESSAGE-INTEGRITY with.
 * Computed once per lookup; the allocation keeps it so later requests don't repeat the HMAC.
 *
 * @param username    the username as it appeared in the request
 * @param user        the user to count quotas against (the part after the expiry for REST names)
 * @param keyMd5      MD5(username:realm:password), the RFC 5389 key every client uses
 * @param keySha256   SHA-256(username:realm:password), or null when only the MD5 key is known
 *                    (coturn's {@code user=name:0x<key>} form)
 */
public record Credential(String username, String user, byte[] keyMd5, byte[] keySha256) {}
