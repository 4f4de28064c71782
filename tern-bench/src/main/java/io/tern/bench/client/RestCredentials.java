package io.tern.bench.client;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * TURN REST API ephemeral credentials (draft-uberti-behave-turn-rest-00, coturn's
 * {@code use-auth-secret}): username {@code <unix-expiry>:<user>}, password
 * {@code base64(HMAC-SHA1(secret, username))}.
 */
public record RestCredentials(String username, String password) {
    public static RestCredentials of(String secret, String user, long expiryEpochSeconds) {
        String username = expiryEpochSeconds + ":" + user;
        byte[] raw = username.getBytes(StandardCharsets.UTF_8);
        byte[] mac = Stun.hmacSha1(secret.getBytes(StandardCharsets.UTF_8), raw, 0, raw.length);
        return new RestCredentials(username, Base64.getEncoder().encodeToString(mac));
    }

    public byte[] longTermKey(String realm) {
        return Stun.longTermKey(username, realm, password);
    }
}
