package io.tern.websocket.engine;

import static io.tern.websocket.engine.Frames.clientFrame;
import static io.tern.websocket.engine.Frames.concat;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.Opcode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A server engine fed raw client bytes, including the protocol violations RFC 6455 names. */
class ServerEngineTest {
    private static final long NOW_NS = 5_000_000_000L;
    private final RecordingSink sink = new RecordingSink();
    private WebSocketEngine server;

    @BeforeEach
    void openServer() {
        server = openServer(WebSocketConfig.defaults().withLimits(1000, 4000), sink);
    }

    static WebSocketEngine openServer(WebSocketConfig config, RecordingSink sink) {
        WebSocketEngine engine = WebSocketEngine.server(config, sink);
        engine.start(NOW_NS);
        byte[] request = Frames.UPGRADE_REQUEST.getBytes(StandardCharsets.ISO_8859_1);
        engine.onBytes(request, 0, request.length, NOW_NS);
        sink.takeWire();
        return engine;
    }

    private void feed(byte[] bytes) {
        server.onBytes(bytes, 0, bytes.length, NOW_NS);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] closePayload(int code, byte[] reason) {
        byte[] payload = new byte[2 + reason.length];
        payload[0] = (byte) (code >>> 8);
        payload[1] = (byte) code;
        System.arraycopy(reason, 0, payload, 2, reason.length);
        return payload;
    }

    /** The close code in the single Close frame the server sent. */
    private int sentCloseCode() {
        byte[] wire = sink.takeWire();
        assertThat(wire[0] & 0x0F).isEqualTo(Opcode.CLOSE);
        return ((wire[2] & 0xFF) << 8) | (wire[3] & 0xFF);
    }

    @Test
    void answersRfc6455SampleHandshake() {
        RecordingSink fresh = new RecordingSink();
        WebSocketEngine engine = WebSocketEngine.server(WebSocketConfig.defaults(), fresh);
        engine.start(NOW_NS);
        byte[] request = Frames.UPGRADE_REQUEST.getBytes(StandardCharsets.ISO_8859_1);
        engine.onBytes(request, 0, request.length, NOW_NS);
        String response = new String(fresh.takeWire(), StandardCharsets.ISO_8859_1);
        assertThat(response)
                .startsWith("HTTP/1.1 101 Switching Protocols\r\n")
                .contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n");
        assertThat(engine.state()).isEqualTo(WebSocketEngine.State.OPEN);
        assertThat(engine.requestTarget()).isEqualTo("/chat");
    }

    @Test
    void frameInTheSameReadAsTheRequestIsDecoded() {
        RecordingSink fresh = new RecordingSink();
        WebSocketEngine engine = WebSocketEngine.server(WebSocketConfig.defaults(), fresh);
        byte[] bytes = concat(
                Frames.UPGRADE_REQUEST.getBytes(StandardCharsets.ISO_8859_1),
                clientFrame(true, 0, Opcode.TEXT, utf8("early")));
        engine.onBytes(bytes, 0, bytes.length, NOW_NS);
        assertThat(fresh.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo(utf8("early")));
    }

    @Test
    void rejectsRequestWithoutKeyWith400() {
        RecordingSink fresh = new RecordingSink();
        WebSocketEngine engine = WebSocketEngine.server(WebSocketConfig.defaults(), fresh);
        byte[] request = Frames.UPGRADE_REQUEST
                .replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", "")
                .getBytes(StandardCharsets.ISO_8859_1);
        engine.onBytes(request, 0, request.length, NOW_NS);
        assertThat(new String(fresh.takeWire(), StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 400 ");
        assertThat(fresh.closeTransportCalls).isEqualTo(1);
    }

    @Test
    void rejectsOtherVersionsWith426NamingVersion13() {
        RecordingSink fresh = new RecordingSink();
        WebSocketEngine engine = WebSocketEngine.server(WebSocketConfig.defaults(), fresh);
        byte[] request =
                Frames.UPGRADE_REQUEST.replace("Version: 13", "Version: 8").getBytes(StandardCharsets.ISO_8859_1);
        engine.onBytes(request, 0, request.length, NOW_NS);
        assertThat(new String(fresh.takeWire(), StandardCharsets.ISO_8859_1))
                .startsWith("HTTP/1.1 426 ")
                .contains("Sec-WebSocket-Version: 13\r\n");
    }

    @Test
    void rejectsOversizedHandshakeWithoutBufferingMore() {
        RecordingSink fresh = new RecordingSink();
        WebSocketEngine engine = WebSocketEngine.server(WebSocketConfig.defaults(), fresh);
        byte[] junk = new byte[100_000];
        Arrays.fill(junk, (byte) 'a');
        engine.onBytes(junk, 0, junk.length, NOW_NS);
        assertThat(new String(fresh.takeWire(), StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 431 ");
        assertThat(engine.state()).isEqualTo(WebSocketEngine.State.CLOSED);
    }

    @Test
    void handshakeTimesOutAtItsDeadline() {
        RecordingSink fresh = new RecordingSink();
        WebSocketConfig config = WebSocketConfig.defaults().withTimeouts(2_000, 1_000);
        WebSocketEngine engine = WebSocketEngine.server(config, fresh);
        engine.start(NOW_NS);
        assertThat(engine.nextDeadlineNs()).isEqualTo(NOW_NS + 2_000);
        engine.onTimeout(NOW_NS + 1_999);
        assertThat(fresh.closeTransportCalls).isZero();
        engine.onTimeout(NOW_NS + 2_000);
        assertThat(fresh.closeTransportCalls).isEqualTo(1);
        assertThat(fresh.closeCode).isEqualTo(CloseCodes.ABNORMAL);
    }

    @Test
    void decodesSevenSixteenAndSixtyFourBitLengths() {
        WebSocketEngine big = openServer(WebSocketConfig.defaults().withLimits(1 << 17, 1 << 17), sink);
        for (int length : new int[] {0, 125, 126, 65535, 65536, 70000}) {
            byte[] payload = new byte[length];
            Arrays.fill(payload, (byte) (length % 251));
            byte[] frame = clientFrame(true, 0, Opcode.BINARY, payload);
            int expectedHeader = 2 + (length < 126 ? 0 : length <= 65535 ? 2 : 8) + 4;
            assertThat(frame.length - length).isEqualTo(expectedHeader);
            big.onBytes(frame, 0, frame.length, NOW_NS);
            assertThat(sink.messages.get(sink.messages.size() - 1).payload()).isEqualTo(payload);
        }
    }

    @Test
    void decodesTheSameWhetherFedWholeOrByteByByte() {
        byte[] stream = concat(
                clientFrame(false, 0, Opcode.TEXT, utf8("Hel")),
                clientFrame(true, 0, Opcode.PING, utf8("p")),
                clientFrame(true, 0, Opcode.CONTINUATION, utf8("lo, κόσμε")),
                clientFrame(true, 0, Opcode.BINARY, new byte[300]));
        for (byte b : stream) {
            feed(new byte[] {b});
        }
        assertThat(sink.messages).hasSize(2);
        assertThat(new String(sink.messages.get(0).payload(), StandardCharsets.UTF_8))
                .isEqualTo("Hello, κόσμε");
        assertThat(sink.messages.get(1).payload()).hasSize(300);
    }

    @Test
    void answersPingInsideAFragmentedMessageWithPongBeforeTheMessageEnds() {
        feed(clientFrame(false, 0, Opcode.TEXT, utf8("frag1")));
        feed(clientFrame(true, 0, Opcode.PING, utf8("ping!")));
        byte[] pong = sink.takeWire();
        assertThat(pong).containsExactly(0x8A, 5, 'p', 'i', 'n', 'g', '!');
        assertThat(sink.messages).isEmpty();
        feed(clientFrame(true, 0, Opcode.CONTINUATION, utf8("frag2")));
        assertThat(sink.messages)
                .singleElement()
                .satisfies(m -> assertThat(new String(m.payload(), StandardCharsets.UTF_8))
                        .isEqualTo("frag1frag2"));
    }

    @Test
    void deliversPongToTheSink() {
        feed(clientFrame(true, 0, Opcode.PONG, utf8("hb")));
        assertThat(sink.pongs).singleElement().isEqualTo(utf8("hb"));
    }

    @Test
    void closeHandshakeEchoesTheCodeThenClosesTheTransport() {
        feed(clientFrame(true, 0, Opcode.CLOSE, closePayload(1001, utf8("bye"))));
        assertThat(sentCloseCode()).isEqualTo(1001);
        assertThat(sink.closeCode).isEqualTo(1001);
        assertThat(sink.closeReason).isEqualTo("bye");
        assertThat(sink.closeTransportCalls).isEqualTo(1);
        assertThat(server.state()).isEqualTo(WebSocketEngine.State.CLOSED);
    }

    @Test
    void emptyCloseIsAnsweredWithEmptyClose() {
        feed(clientFrame(true, 0, Opcode.CLOSE, new byte[0]));
        assertThat(sink.takeWire()).containsExactly(0x88, 0);
        assertThat(sink.closeCode).isEqualTo(CloseCodes.NO_STATUS);
    }

    @Test
    void invalidCloseCodesFailWith1002() {
        for (int code : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000}) {
            RecordingSink fresh = new RecordingSink();
            WebSocketEngine engine = openServer(WebSocketConfig.defaults(), fresh);
            byte[] frame = clientFrame(true, 0, Opcode.CLOSE, closePayload(code, new byte[0]));
            engine.onBytes(frame, 0, frame.length, NOW_NS);
            assertThat(fresh.closeCode).as("code %d", code).isEqualTo(CloseCodes.PROTOCOL_ERROR);
        }
    }

    @Test
    void closeReasonMustBeUtf8() {
        feed(clientFrame(
                true, 0, Opcode.CLOSE, closePayload(1000, new byte[] {(byte) 0xCE, (byte) 0xBA, (byte) 0xE1})));
        assertThat(sentCloseCode()).isEqualTo(CloseCodes.INVALID_PAYLOAD);
    }

    @Test
    void oneByteClosePayloadIsAProtocolError() {
        feed(clientFrame(true, 0, Opcode.CLOSE, new byte[] {3}));
        assertThat(sentCloseCode()).isEqualTo(CloseCodes.PROTOCOL_ERROR);
    }

    @Test
    void invalidUtf8FailsAsSoonAsTheOffendingFragmentArrives() {
        feed(clientFrame(false, 0, Opcode.TEXT, utf8("κόσμε")));
        assertThat(sink.closeCode).isEqualTo(-1);
        // 0xF4 0x90 starts a code point above U+10FFFF: no continuation can make it valid.
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[] {(byte) 0xF4, (byte) 0x90}));
        assertThat(sink.closeCode).isEqualTo(CloseCodes.INVALID_PAYLOAD);
        assertThat(sentCloseCode()).isEqualTo(CloseCodes.INVALID_PAYLOAD);
    }

    @Test
    void invalidUtf8FailsWithinAFrameBeforeItsEnd() {
        byte[] frame =
                clientFrame(true, 0, Opcode.TEXT, concat(utf8("hello"), new byte[] {(byte) 0xC0, 'a', 'b', 'c'}));
        int offendingByteEnd = frame.length - 3;
        server.onBytes(frame, 0, offendingByteEnd, NOW_NS);
        assertThat(sink.closeCode).isEqualTo(CloseCodes.INVALID_PAYLOAD);
    }

    @Test
    void messageEndingInsideACodePointIsInvalid() {
        feed(clientFrame(true, 0, Opcode.TEXT, new byte[] {'a', (byte) 0xE2, (byte) 0x82}));
        assertThat(sentCloseCode()).isEqualTo(CloseCodes.INVALID_PAYLOAD);
    }

    @Test
    void codePointSplitAcrossFragmentsIsValid() {
        byte[] euro = utf8("€");
        feed(clientFrame(false, 0, Opcode.TEXT, Arrays.copyOfRange(euro, 0, 1)));
        feed(clientFrame(true, 0, Opcode.CONTINUATION, Arrays.copyOfRange(euro, 1, 3)));
        assertThat(sink.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo(euro));
    }

    @Test
    void frameLargerThanTheLimitFailsWith1009FromItsHeaderAlone() {
        byte[] header = new byte[FrameHeader.MAX_HEADER_BYTES];
        int headerBytes = FrameHeader.encode(header, 0, true, 0, Opcode.BINARY, 1001, true, 1);
        server.onBytes(header, 0, headerBytes, NOW_NS);
        assertThat(sentCloseCode()).isEqualTo(CloseCodes.MESSAGE_TOO_BIG);
    }

    @Test
    void messageLargerThanTheLimitAcrossFragmentsFailsWith1009() {
        feed(clientFrame(false, 0, Opcode.BINARY, new byte[1000]));
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[1000]));
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[1000]));
        assertThat(sink.closeCode).isEqualTo(-1);
        feed(clientFrame(true, 0, Opcode.CONTINUATION, new byte[1000]));
        assertThat(sink.closeCode).isEqualTo(-1);
        feed(clientFrame(false, 0, Opcode.BINARY, new byte[1000]));
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[1000]));
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[1000]));
        feed(clientFrame(true, 0, Opcode.CONTINUATION, new byte[1001 - 0]));
        assertThat(sink.closeCode).isEqualTo(CloseCodes.MESSAGE_TOO_BIG);
    }

    @Test
    void protocolViolationsFailWith1002() {
        byte[][] violations = {
            clientFrame(true, 0x20, Opcode.TEXT, utf8("rsv2")),
            clientFrame(true, FrameHeader.RSV1, Opcode.TEXT, utf8("rsv1 without deflate")),
            clientFrame(true, 0, 3, new byte[0]),
            clientFrame(true, 0, 0xB, new byte[0]),
            clientFrame(true, 0, Opcode.CONTINUATION, utf8("orphan")),
            clientFrame(false, 0, Opcode.PING, new byte[0]),
            clientFrame(true, 0, Opcode.PING, new byte[126]),
            Frames.frame(true, 0, Opcode.TEXT, utf8("unmasked"), false),
            concat(clientFrame(false, 0, Opcode.TEXT, utf8("a")), clientFrame(true, 0, Opcode.TEXT, utf8("b"))),
        };
        for (byte[] violation : violations) {
            RecordingSink fresh = new RecordingSink();
            WebSocketEngine engine = openServer(WebSocketConfig.defaults(), fresh);
            engine.onBytes(violation, 0, violation.length, NOW_NS);
            assertThat(fresh.closeCode).isEqualTo(CloseCodes.PROTOCOL_ERROR);
            assertThat(fresh.closeTransportCalls).isEqualTo(1);
            assertThat(fresh.messages).isEmpty();
        }
    }

    @Test
    void bytesAfterFailureAreIgnored() {
        feed(clientFrame(true, 0, 3, new byte[0]));
        sink.takeWire();
        feed(clientFrame(true, 0, Opcode.TEXT, utf8("late")));
        assertThat(sink.messages).isEmpty();
        assertThat(sink.wire.size()).isZero();
    }
}
