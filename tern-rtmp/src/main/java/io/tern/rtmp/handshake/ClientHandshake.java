package io.tern.rtmp.handshake;

import io.tern.rtmp.RtmpException;
import io.tern.rtmp.bytes.ByteWriter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The client's half of the handshake: sends C0 and C1 (signed with the chosen scheme, version
 * 9.0.124.2 as ffmpeg sends), reads S0 and S1, answers C2 (signed over the server's digest when
 * both sides sign, else S1 echoed), then reads S2 and records whether it verifies.
 */
public final class ClientHandshake {
    private static final byte[] CLIENT_VERSION = {9, 0, 124, 2};

    private final HandshakeScheme scheme;
    private final byte[] c1 = new byte[HandshakeDigest.PACKET_BYTES];
    private final byte[] s0s1 = new byte[1 + HandshakeDigest.PACKET_BYTES];
    private final byte[] s2 = new byte[HandshakeDigest.PACKET_BYTES];
    private int s0s1Fill;
    private int s2Fill;
    private int c1DigestAt = -1;
    private HandshakeScheme serverScheme;
    private boolean s2Verified;

    public ClientHandshake(HandshakeScheme scheme) {
        this.scheme = scheme;
    }

    /** Writes C0 and C1. */
    public void start(ByteWriter out, RandomGenerator random) {
        random.nextBytes(c1);
        Arrays.fill(c1, 0, 4, (byte) 0);
        if (scheme.digest()) {
            System.arraycopy(CLIENT_VERSION, 0, c1, 4, 4);
            c1DigestAt = HandshakeDigest.sign(c1, 0, scheme, HandshakeDigest.PLAYER_KEY_TEXT);
        } else {
            Arrays.fill(c1, 4, 8, (byte) 0);
        }
        out.u8(ServerHandshake.RTMP_VERSION).bytes(c1);
    }

    /** Consumes S0, S1 and S2; writes C2 after S1. Returns true when S2 has been read. */
    public boolean consume(ByteBuffer src, ByteWriter out, RandomGenerator random) throws RtmpException {
        if (s0s1Fill < s0s1.length) {
            int n = Math.min(s0s1.length - s0s1Fill, src.remaining());
            src.get(s0s1, s0s1Fill, n);
            if (s0s1Fill == 0 && n > 0) {
                ServerHandshake.checkVersion(s0s1[0] & 0xFF);
            }
            s0s1Fill += n;
            if (s0s1Fill < s0s1.length) {
                return false;
            }
            answer(out, random);
        }
        int n = Math.min(s2.length - s2Fill, src.remaining());
        src.get(s2, s2Fill, n);
        s2Fill += n;
        if (s2Fill < s2.length) {
            return false;
        }
        if (c1DigestAt >= 0) {
            s2Verified = HandshakeDigest.verifyResponse(
                    s2, 0, HandshakeDigest.digestAt(c1, 0, c1DigestAt), HandshakeDigest.SERVER_KEY);
        } else {
            // The specification's S2 echoes C1, with the time it was read in bytes 4-7.
            s2Verified = Arrays.equals(s2, 0, 4, c1, 0, 4) && Arrays.equals(s2, 8, s2.length, c1, 8, c1.length);
        }
        return true;
    }

    private void answer(ByteWriter out, RandomGenerator random) {
        boolean versioned = (s0s1[5] | s0s1[6] | s0s1[7] | s0s1[8]) != 0;
        serverScheme =
                versioned ? HandshakeDigest.detect(s0s1, 1, HandshakeDigest.SERVER_KEY_TEXT) : HandshakeScheme.PLAIN;
        if (scheme.digest() && serverScheme.digest()) {
            byte[] c2 = new byte[HandshakeDigest.PACKET_BYTES];
            random.nextBytes(c2);
            int at = serverScheme.digestPosition(s0s1, 1);
            HandshakeDigest.signResponse(c2, 0, HandshakeDigest.digestAt(s0s1, 1, at), HandshakeDigest.PLAYER_KEY);
            out.bytes(c2);
        } else {
            out.bytes(s0s1, 1, HandshakeDigest.PACKET_BYTES);
        }
    }

    /** Bytes of S0, S1 and S2 read so far. */
    public int bytesRead() {
        return s0s1Fill + s2Fill;
    }

    /** The scheme S1 was signed with; null until S1 is read. */
    public HandshakeScheme serverScheme() {
        return serverScheme;
    }

    /** Whether S2 answered C1 correctly: signed over its digest, or an echo of a plain C1. */
    public boolean serverResponseVerified() {
        return s2Verified;
    }
}
