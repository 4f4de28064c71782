package io.tern.rtmp.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.rtmp.CloseReason;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.amf.Amf0Writer;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.amf.AmfValue.AmfNull;
import io.tern.rtmp.amf.AmfValue.AmfObject;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpEvent.Closed;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the server does with input no honest publisher sends. */
class BadInputSessionTest {
    private static final RtmpSettings SETTINGS = RtmpSettings.defaults();

    private static Closed closed(List<RtmpEvent> events) {
        assertThat(events).isNotEmpty();
        assertThat(events.get(events.size() - 1)).as("Closed is the last event").isInstanceOf(Closed.class);
        return (Closed) events.get(events.size() - 1);
    }

    @Test
    void garbageIsNotRtmp() {
        RawClient client = new RawClient(SETTINGS);
        client.send(new byte[] {0x42, 0x13, 0x37});

        Closed closed = closed(client.events());
        assertThat(closed.reason()).isEqualTo(CloseReason.NOT_RTMP);
        assertThat(closed.detail()).isEqualTo("handshake byte 0 is version 0x42, not RTMP version 3");
        assertThat(client.server.pendingWriteBytes()).as("nothing is answered").isZero();
    }

    @Test
    void anHttpRequestIsNamedAsSuch() {
        RawClient client = new RawClient(SETTINGS);
        client.send("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

        assertThat(closed(client.events()).detail()).isEqualTo("handshake byte 0 is an HTTP request, not RTMP");
    }

    @Test
    void aTruncatedHandshakeTimesOut() {
        RawClient client = new RawClient(SETTINGS);
        byte[] partial = new byte[100];
        partial[0] = 3;
        client.send(partial);
        assertThat(client.server.nextDeadlineNs()).isEqualTo(client.nowNs + SETTINGS.handshakeTimeoutNs());

        client.advance(SETTINGS.handshakeTimeoutNs() - 1);
        assertThat(client.server.isClosed()).isFalse();
        client.advance(1);

        assertThat(closed(client.events()))
                .isEqualTo(new Closed(
                        CloseReason.HANDSHAKE_TIMEOUT,
                        "handshake not complete after 10000 ms (100 bytes of it received)"));
    }

    @Test
    void aPeerLeavingDuringTheHandshakeIsReported() {
        RawClient client = new RawClient(SETTINGS);
        byte[] partial = new byte[700];
        partial[0] = 3;
        client.send(partial);
        client.server.onPeerClosed(client.nowNs);

        assertThat(closed(client.events()))
                .isEqualTo(new Closed(CloseReason.PEER_CLOSED, "peer closed during the handshake, after 700 bytes"));
    }

    @Test
    void aHugeChunkSizeEndsTheSession() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.control(MessageType.SET_CHUNK_SIZE, 0x7FFFFFFFL);

        assertThat(closed(client.events()))
                .isEqualTo(new Closed(
                        CloseReason.LIMIT_EXCEEDED,
                        "peer set chunk size 2147483647, over the limit of 16777216 bytes"));
    }

    @Test
    void aChunkSizeOf16MiBIsTheLargestAccepted() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.control(MessageType.SET_CHUNK_SIZE, 16 * 1024 * 1024);
        assertThat(client.server.isClosed()).isFalse();
        client.control(MessageType.SET_CHUNK_SIZE, 16 * 1024 * 1024 + 1);
        assertThat(client.server.closeReason()).isEqualTo(CloseReason.LIMIT_EXCEEDED);
    }

    @Test
    void aZeroChunkSizeIsAProtocolError() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.control(MessageType.SET_CHUNK_SIZE, 0);

        assertThat(closed(client.events())).isEqualTo(new Closed(CloseReason.PROTOCOL_ERROR, "peer set chunk size 0"));
    }

    @Test
    void malformedChunksAreAProtocolError() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.send(new byte[] {(byte) 0xC3, 1, 2, 3});

        Closed closed = closed(client.events());
        assertThat(closed.reason()).isEqualTo(CloseReason.PROTOCOL_ERROR);
        assertThat(closed.detail()).isEqualTo("chunk type 3 on chunk stream 3, which has no type 0 header yet");
    }

    @Test
    void aMessageLongerThanTheLimitEndsTheSession() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        // A type 0 header declaring 16 MiB - 1 bytes, over the 8 MiB default.
        client.send(new byte[] {0x06, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 9, 1, 0, 0, 0});

        Closed closed = closed(client.events());
        assertThat(closed.reason()).isEqualTo(CloseReason.LIMIT_EXCEEDED);
        assertThat(closed.detail())
                .contains("message of 16777215 bytes on chunk stream 6 exceeds the limit of 8388608");
    }

    @Test
    void aMalformedCommandIsAProtocolError() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.message(3, MessageType.COMMAND_AMF0, 0, 0, new byte[] {0x02, 0x00, 0x07, 'c', 'o'});

        Closed closed = closed(client.events());
        assertThat(closed.reason()).isEqualTo(CloseReason.PROTOCOL_ERROR);
        assertThat(closed.detail()).startsWith("malformed command: AMF0 value truncated");
    }

    @Test
    void commandsBeforeConnectAreAProtocolError() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.command(1, "publish", 0, AmfNull.NULL);

        assertThat(closed(client.events()))
                .isEqualTo(new Closed(CloseReason.PROTOCOL_ERROR, "command 'publish' before connect"));
    }

    @Test
    void publishingOnAStreamNeverCreatedIsRefused() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.command(0, "connect", 1, AmfObject.of("app", "live"));
        client.command(7, "publish", 0, AmfNull.NULL, AmfValue.of("x"));

        Closed closed = closed(client.events());
        assertThat(closed.reason()).isEqualTo(CloseReason.PUBLISH_REFUSED);
        assertThat(closed.detail()).isEqualTo("publish on message stream 7 without createStream");
    }

    @Test
    void aConnectionThatNeverPublishesTimesOut() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.command(0, "connect", 1, AmfObject.of("app", "live"));
        // Pings keep it from being idle; it still has to publish within the setup timeout.
        for (int i = 0; i < 6 && !client.server.isClosed(); i++) {
            client.advance(TimeUnit.SECONDS.toNanos(5));
            client.message(2, MessageType.USER_CONTROL, 0, 0, new byte[] {0, 6, 0, 0, 0, 1});
        }
        client.advance(0);

        assertThat(closed(client.events()))
                .isEqualTo(new Closed(CloseReason.SETUP_TIMEOUT, "no publish within 30000 ms of the handshake"));
    }

    @Test
    void aConnectionThatSaysNothingTimesOutFirst() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        client.advance(SETTINGS.idleTimeoutNs());

        assertThat(closed(client.events())).isEqualTo(new Closed(CloseReason.IDLE_TIMEOUT, "no message for 20000 ms"));
    }

    @Test
    void amf3CommandsWithAnAmf0BodyAreRead() throws RtmpException {
        RawClient client = new RawClient(SETTINGS).handshake();
        ByteWriter body = new ByteWriter(64);
        body.u8(0);
        Amf0Writer.string(body, "connect");
        Amf0Writer.number(body, 1);
        Amf0Writer.write(body, AmfObject.of("app", "live"));
        client.message(3, MessageType.COMMAND_AMF3, 0, 0, Arrays.copyOf(body.array(), body.length()));

        assertThat(client.events()).first().isEqualTo(new RtmpEvent.Connected("live", null, null));
    }

    @Test
    void inputAfterTheCloseIsIgnored() {
        RawClient client = new RawClient(SETTINGS);
        client.send(new byte[] {9});
        List<RtmpEvent> first = client.events();
        ByteBuffer more = ByteBuffer.wrap(new byte[1000]);
        client.server.onBytes(more, client.nowNs);
        client.server.onTimeout(Long.MAX_VALUE - 1);

        assertThat(more.hasRemaining()).isFalse();
        assertThat(client.events()).isEmpty();
        assertThat(first).hasSize(1);
        assertThat(client.server.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aClientGivesUpOnAServerThatNeverAnswers() {
        RtmpClientSession client = new RtmpClientSession(
                SETTINGS,
                new RtmpClientSession.Target("live", "rtmp://x/live", "s"),
                HandshakeScheme.PLAIN,
                new SplittableRandom(1),
                0);
        client.onTimeout(SETTINGS.handshakeTimeoutNs());

        assertThat(client.closeReason()).isEqualTo(CloseReason.HANDSHAKE_TIMEOUT);
        assertThat(client.pollEvent())
                .isEqualTo(new Closed(
                        CloseReason.HANDSHAKE_TIMEOUT,
                        "handshake not complete after 10000 ms (0 bytes of it received)"));
    }
}
