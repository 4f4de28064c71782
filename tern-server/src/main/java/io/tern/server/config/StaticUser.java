package io.tern.server.config;

import java.util.Objects;

/**
 * A long-term credential account from {@code user=name:password} or {@code user=name:0x<key>}.
 * Only the key is kept: {@code MD5(name ":" realm ":" password)}, RFC 8489 section 9.2.2.
 *
 * @param name    user name as written
 * @param keyHex  the 16-byte key as 32 lower-case hex digits
 */
public record StaticUser(String name, String keyHex) {
    public static final int KEY_BYTES = 16;

    public StaticUser {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keyHex, "keyHex");
        if (keyHex.length() != KEY_BYTES * 2) {
            throw new IllegalArgumentException("key must be " + KEY_BYTES * 2 + " hex digits");
        }
        keyHex = keyHex.toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public String toString() {
        return "StaticUser[name=" + name + ", key=<redacted>]";
    }
}
