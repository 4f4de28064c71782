package io.tern.websocket.handshake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** RFC 6455 §4 opening-handshake constants and the accept-key computation. */
public final class Handshake {
    /** §1.3: the GUID appended to the client's key. */
    public static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    public static final String VERSION = "13";
    public static final int KEY_BYTES = 16;

    private Handshake() {}

    public static String acceptKey(String clientKey) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((clientKey + GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", e);
        }
    }

    /** §4.2.1 item 5: the key must be base64 that decodes to exactly 16 bytes. */
    public static boolean isValidKey(String key) {
        if (key == null) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == KEY_BYTES;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
