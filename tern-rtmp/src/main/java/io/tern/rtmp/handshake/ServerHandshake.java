package io.tern.rtmp.handshake;

import io.tern.rtmp.CloseReason;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.bytes.ByteWriter;
import java.nio.ByteBuffer;
import java.util.random.RandomGenerator;

/**
 * The server's half of the handshake: reads C0 and C1, answers S0, S1 and S2 at once (as
 * nginx-rtmp and SRS do), then reads C2. A C1 signed with either digest scheme gets an S1 signed
 * with the same scheme and an S2 signed over the client's digest; an unsigned C1 (version 0, or
 * a digest that does not verify) gets the plain answer, its own bytes echoed in S2. C2 is read
 * and not checked, as every server does: clients differ too much.
 */
public final class ServerHandshake {
    /** The only unencrypted RTMP version (C0/S0). */
    public static final int RTMP_VERSION = 3;

    private static final byte[] SERVER_VERSION = {13, 14, 10, 13};

    private final byte[] c0c1 = new byte[1 + HandshakeDigest.PACKET_BYTES];
    private int c0c1Fill;
    private int c2Left = HandshakeDigest.PACKET_BYTES;
    private HandshakeScheme clientScheme;

    /**
     * Consumes handshake bytes from {@code src}; once C0 and C1 are complete, S0, S1 and S2 go to
     * {@code out}. Returns true when C2 has been read: what is left in {@code src} is chunk data.
     */
    public boolean consume(ByteBuffer src, ByteWriter out, RandomGenerator random) throws RtmpException {
        if (c0c1Fill < c0c1.length) {
            int n = Math.min(c0c1.length - c0c1Fill, src.remaining());
            src.get(c0c1, c0c1Fill, n);
            if (c0c1Fill == 0 && n > 0) {
                checkVersion(c0c1[0] & 0xFF);
            }
            c0c1Fill += n;
            if (c0c1Fill < c0c1.length) {
                return false;
            }
            respond(out, random);
        }
        int skip = Math.min(c2Left, src.remaining());
        src.position(src.position() + skip);
        c2Left -= skip;
        return c2Left == 0;
    }

    /** The scheme the client signed C1 with; null until C1 is read. */
    public HandshakeScheme clientScheme() {
        return clientScheme;
    }

    /** Bytes read so far, for the detail of a handshake that never completes. */
    public int bytesRead() {
        return c0c1Fill + HandshakeDigest.PACKET_BYTES - c2Left;
    }

    private void respond(ByteWriter out, RandomGenerator random) {
        boolean versioned = (c0c1[5] | c0c1[6] | c0c1[7] | c0c1[8]) != 0;
        clientScheme =
                versioned ? HandshakeDigest.detect(c0c1, 1, HandshakeDigest.PLAYER_KEY_TEXT) : HandshakeScheme.PLAIN;

        byte[] s1 = new byte[HandshakeDigest.PACKET_BYTES];
        random.nextBytes(s1);
        s1[0] = s1[1] = s1[2] = s1[3] = 0; // time
        System.arraycopy(SERVER_VERSION, 0, s1, 4, 4);
        HandshakeScheme s1Scheme = clientScheme.digest() ? clientScheme : HandshakeScheme.DIGEST_OFFSET_8;
        HandshakeDigest.sign(s1, 0, s1Scheme, HandshakeDigest.SERVER_KEY_TEXT);

        out.u8(RTMP_VERSION).bytes(s1);
        if (clientScheme.digest()) {
            int at = clientScheme.digestPosition(c0c1, 1);
            byte[] s2 = new byte[HandshakeDigest.PACKET_BYTES];
            random.nextBytes(s2);
            HandshakeDigest.signResponse(s2, 0, HandshakeDigest.digestAt(c0c1, 1, at), HandshakeDigest.SERVER_KEY);
            out.bytes(s2);
        } else {
            out.bytes(c0c1, 1, HandshakeDigest.PACKET_BYTES);
        }
    }

    static void checkVersion(int c0) throws RtmpException {
        if (c0 == RTMP_VERSION) {
            return;
        }
        String what = switch (c0) {
            case 6, 8, 9 -> "encrypted RTMP (RTMPE, version " + c0 + "), which Tern does not support";
            case 'G', 'P', 'H', 'O' -> "an HTTP request, not RTMP";
            case 0x16 -> "a TLS handshake on the plain RTMP port";
            default -> "version 0x" + Integer.toHexString(c0) + ", not RTMP version 3";
        };
        throw new RtmpException(CloseReason.NOT_RTMP, "handshake byte 0 is " + what);
    }
}
