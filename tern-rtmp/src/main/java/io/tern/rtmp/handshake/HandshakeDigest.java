package io.tern.rtmp.handshake;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The digest handshake's keys and HMACs. The keys are the public constants every RTMP
 * implementation shares: "Genuine Adobe Flash Player 001" and "Genuine Adobe Flash Media Server
 * 001", each followed by the same 32 bytes. C1 and S1 carry an HMAC of themselves (minus the
 * digest) keyed with the short text part; C2 and S2 end with an HMAC of their first 1504 bytes,
 * keyed with an HMAC of the other side's digest under the full key.
 */
final class HandshakeDigest {
    static final int PACKET_BYTES = 1536;
    static final int DIGEST_BYTES = 32;

    private static final byte[] KEY_TAIL = {
        (byte) 0xF0, (byte) 0xEE, (byte) 0xC2, (byte) 0x4A, (byte) 0x80, (byte) 0x68, (byte) 0xBE, (byte) 0xE8,
        (byte) 0x2E, (byte) 0x00, (byte) 0xD0, (byte) 0xD1, (byte) 0x02, (byte) 0x9E, (byte) 0x7E, (byte) 0x57,
        (byte) 0x6E, (byte) 0xEC, (byte) 0x5D, (byte) 0x2D, (byte) 0x29, (byte) 0x80, (byte) 0x6F, (byte) 0xAB,
        (byte) 0x93, (byte) 0xB8, (byte) 0xE6, (byte) 0x36, (byte) 0xCF, (byte) 0xEB, (byte) 0x31, (byte) 0xAE
    };
    static final byte[] PLAYER_KEY_TEXT = "Genuine Adobe Flash Player 001".getBytes(StandardCharsets.US_ASCII);
    static final byte[] SERVER_KEY_TEXT = "Genuine Adobe Flash Media Server 001".getBytes(StandardCharsets.US_ASCII);
    static final byte[] PLAYER_KEY = concat(PLAYER_KEY_TEXT, KEY_TAIL);
    static final byte[] SERVER_KEY = concat(SERVER_KEY_TEXT, KEY_TAIL);

    private HandshakeDigest() {}

    /** Writes the digest of {@code packet} at the scheme's position; returns the position. */
    static int sign(byte[] packet, int offset, HandshakeScheme scheme, byte[] key) {
        int at = scheme.digestPosition(packet, offset);
        byte[] digest = digestOf(packet, offset, at, key);
        System.arraycopy(digest, 0, packet, offset + at, DIGEST_BYTES);
        return at;
    }

    /** The digest position if {@code packet} is signed with {@code key} under {@code scheme}, else -1. */
    static int verify(byte[] packet, int offset, HandshakeScheme scheme, byte[] key) {
        int at = scheme.digestPosition(packet, offset);
        byte[] expected = digestOf(packet, offset, at, key);
        byte[] actual = Arrays.copyOfRange(packet, offset + at, offset + at + DIGEST_BYTES);
        return MessageDigest.isEqual(expected, actual) ? at : -1;
    }

    /** The first digest scheme that verifies, or {@link HandshakeScheme#PLAIN}. */
    static HandshakeScheme detect(byte[] packet, int offset, byte[] key) {
        for (HandshakeScheme scheme :
                new HandshakeScheme[] {HandshakeScheme.DIGEST_OFFSET_8, HandshakeScheme.DIGEST_OFFSET_772}) {
            if (verify(packet, offset, scheme, key) >= 0) {
                return scheme;
            }
        }
        return HandshakeScheme.PLAIN;
    }

    /** Fills the last 32 bytes of a C2/S2 with its signature answering {@code peerDigest}. */
    static void signResponse(byte[] packet, int offset, byte[] peerDigest, byte[] fullKey) {
        byte[] key = hmac(fullKey, peerDigest, 0, DIGEST_BYTES);
        byte[] signature = hmac(key, packet, offset, PACKET_BYTES - DIGEST_BYTES);
        System.arraycopy(signature, 0, packet, offset + PACKET_BYTES - DIGEST_BYTES, DIGEST_BYTES);
    }

    static boolean verifyResponse(byte[] packet, int offset, byte[] ownDigest, byte[] fullKey) {
        byte[] key = hmac(fullKey, ownDigest, 0, DIGEST_BYTES);
        byte[] signature = hmac(key, packet, offset, PACKET_BYTES - DIGEST_BYTES);
        byte[] actual = Arrays.copyOfRange(packet, offset + PACKET_BYTES - DIGEST_BYTES, offset + PACKET_BYTES);
        return MessageDigest.isEqual(signature, actual);
    }

    static byte[] digestAt(byte[] packet, int offset, int position) {
        return Arrays.copyOfRange(packet, offset + position, offset + position + DIGEST_BYTES);
    }

    private static byte[] digestOf(byte[] packet, int offset, int at, byte[] key) {
        Mac mac = mac(key);
        mac.update(packet, offset, at);
        mac.update(packet, offset + at + DIGEST_BYTES, PACKET_BYTES - at - DIGEST_BYTES);
        return mac.doFinal();
    }

    private static byte[] hmac(byte[] key, byte[] data, int offset, int length) {
        Mac mac = mac(key);
        mac.update(data, offset, length);
        return mac.doFinal();
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
