package io.tern.rtmp.handshake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.rtmp.CloseReason;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.bytes.ByteWriter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class HandshakeTest {
    @ParameterizedTest
    @EnumSource(HandshakeScheme.class)
    void serverAnswersEachSchemeAndTheClientVerifiesIt(HandshakeScheme scheme) throws RtmpException {
        SplittableRandom random = new SplittableRandom(7);
        ClientHandshake client = new ClientHandshake(scheme);
        ServerHandshake server = new ServerHandshake();
        ByteWriter toServer = new ByteWriter(4096);
        ByteWriter toClient = new ByteWriter(4096);

        client.start(toServer, random);
        assertThat(server.consume(ByteBuffer.wrap(toServer.array(), 0, toServer.length()), toClient, random))
                .isFalse();
        toServer.clear();
        assertThat(toClient.length()).as("S0 S1 S2 at once").isEqualTo(1 + 1536 + 1536);
        assertThat(client.consume(ByteBuffer.wrap(toClient.array(), 0, toClient.length()), toServer, random))
                .isTrue();
        assertThat(server.consume(ByteBuffer.wrap(toServer.array(), 0, toServer.length()), toClient, random))
                .isTrue();

        assertThat(server.clientScheme()).isEqualTo(scheme);
        assertThat(client.serverScheme())
                .as("S1 is signed with the client's scheme, or scheme 0 for a plain client")
                .isEqualTo(scheme == HandshakeScheme.PLAIN ? HandshakeScheme.DIGEST_OFFSET_8 : scheme);
        assertThat(client.serverResponseVerified()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(
            value = HandshakeScheme.class,
            names = {"DIGEST_OFFSET_8", "DIGEST_OFFSET_772"})
    void aC1WithABrokenDigestGetsThePlainAnswer(HandshakeScheme scheme) throws RtmpException {
        ClientHandshake client = new ClientHandshake(scheme);
        ByteWriter c0c1 = new ByteWriter(1537);
        client.start(c0c1, new SplittableRandom(1));
        for (int i = 9; i < 1537; i++) {
            c0c1.array()[i] ^= 0x5A; // the digest no longer matches, the version stays
        }
        ServerHandshake server = new ServerHandshake();
        ByteWriter answer = new ByteWriter(4096);

        server.consume(ByteBuffer.wrap(c0c1.array(), 0, c0c1.length()), answer, new SplittableRandom(2));

        assertThat(server.clientScheme()).isEqualTo(HandshakeScheme.PLAIN);
        assertThat(Arrays.copyOfRange(answer.array(), 1537, 3073))
                .as("S2 echoes C1")
                .isEqualTo(Arrays.copyOfRange(c0c1.array(), 1, 1537));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 6, 'G', 0x16, 0xFF})
    void aFirstByteOtherThanVersion3IsNotRtmp(int c0) {
        ServerHandshake server = new ServerHandshake();
        byte[] input = {(byte) c0, 1, 2};

        assertThatThrownBy(() -> server.consume(ByteBuffer.wrap(input), new ByteWriter(16), new SplittableRandom()))
                .isInstanceOfSatisfying(
                        RtmpException.class, e -> assertThat(e.reason()).isEqualTo(CloseReason.NOT_RTMP))
                .hasMessageStartingWith("handshake byte 0 is ");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 100, 1536, 1537, 3000})
    void theHandshakeMayArriveInAnyPieces(int piece) throws RtmpException {
        ClientHandshake client = new ClientHandshake(HandshakeScheme.DIGEST_OFFSET_8);
        ServerHandshake server = new ServerHandshake();
        ByteWriter c0c1 = new ByteWriter(1537);
        client.start(c0c1, new SplittableRandom(3));
        byte[] extra = {(byte) 0xC3}; // a chunk byte right after C2
        ByteWriter c2 = new ByteWriter(2000);
        ByteWriter s = new ByteWriter(4000);
        feed(server, c0c1.array(), c0c1.length(), piece, s);
        feedClient(client, s.array(), s.length(), piece, c2);
        c2.bytes(extra);

        int left = -1;
        for (int at = 0; at < c2.length(); at += piece) {
            int n = Math.min(piece, c2.length() - at);
            ByteBuffer part = ByteBuffer.wrap(c2.array(), at, n);
            if (server.consume(part, new ByteWriter(16), new SplittableRandom())) {
                left = part.remaining() + c2.length() - at - n;
                break;
            }
        }
        assertThat(left).as("the chunk byte is left for the chunk reader").isEqualTo(1);
    }

    private static void feed(ServerHandshake server, byte[] bytes, int length, int piece, ByteWriter out)
            throws RtmpException {
        for (int at = 0; at < length; at += piece) {
            server.consume(ByteBuffer.wrap(bytes, at, Math.min(piece, length - at)), out, new SplittableRandom(4));
        }
    }

    private static void feedClient(ClientHandshake client, byte[] bytes, int length, int piece, ByteWriter out)
            throws RtmpException {
        for (int at = 0; at < length; at += piece) {
            client.consume(ByteBuffer.wrap(bytes, at, Math.min(piece, length - at)), out, new SplittableRandom(5));
        }
    }
}
