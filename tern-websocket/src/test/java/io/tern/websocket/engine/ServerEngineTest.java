package io.tern.websocket.engine;

import static io.tern.websocket.engine.Frames.clientFrame;
import static io.tern.websocket.engine.Frames.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.tern.websocket.engine.WebSocketEngine.TransportAction;
import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.Opcode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A server engine fed raw client bytes, including the protocol violations RFC 6455 names. */
class ServerEngineTest {
    private static final long NOW_NS = 5_000_000_000L;
    private EnginePeer peer;

    @BeforeEach
    void openServer() {
        peer = EnginePeer.openServer(WebSocketConfig.defaults().withLimits(1000, 4000), NOW_NS);
    }

    private void feed(byte[] bytes) {
        peer.feed(bytes, NOW_NS);
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
        byte[] wire = peer.takeWire();
        assertThat(wire[0] & 0x0F).isEqualTo(Opcode.CLOSE);
        return ((wire[2] & 0xFF) << 8) | (wire[3] & 0xFF);
    }

    @Test
    void sendHeaderFramesOnlyTheHeaderOfAnUncompressedUnfragmentedMessage() {
        assertThat(peer.engine.sendHeader(true, 300)).isTrue();
        assertThat(peer.takeWire()).containsExactly(0x81, 126, 0x01, 0x2C);
        assertThat(peer.engine.sendHeader(false, 5)).isTrue();
        assertThat(peer.takeWire()).containsExactly(0x82, 5);

        EnginePeer fragmenting =
                EnginePeer.openServer(WebSocketConfig.defaults().withAutoFragmentBytes(100), NOW_NS);
        assertThat(fragmenting.engine.sendHeader(true, 101))
                .as("must be fragmented")
                .isFalse();
        assertThat(fragmenting.engine.sendHeader(true, 100)).isTrue();

        EnginePeer compressing = EnginePeer.server(WebSocketConfig.defaults()
                .withDeflate(io.tern.websocket.deflate.PerMessageDeflateConfig.honourOffers(
                        new io.tern.websocket.deflate.CodecPool(2, 1))));
        compressing.engine.start(NOW_NS);
        compressing.acceptUpgrade(
                Frames.UPGRADE_REQUEST.replace("\r\n\r\n", "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n"),
                NOW_NS);
        compressing.takeWire();
        assertThat(compressing.engine.sendHeader(true, 10))
                .as("must be compressed")
                .isFalse();
        assertThat(compressing.wire.size()).isZero();

        peer.feed(Frames.clientFrame(true, 0, Opcode.CLOSE, closePayload(1000, new byte[0])), NOW_NS);
        peer.takeWire();
        assertThat(peer.engine.sendHeader(true, 10)).as("closed").isFalse();
        assertThat(peer.wire.size()).isZero();
    }

    @Test
    void answersRfc6455SampleHandshake() {
        EnginePeer fresh = EnginePeer.server(WebSocketConfig.defaults());
        fresh.engine.start(NOW_NS);
        assertThat(fresh.acceptUpgrade(Frames.UPGRADE_REQUEST, NOW_NS)).isEqualTo(101);
        String response = new String(fresh.takeWire(), StandardCharsets.ISO_8859_1);
        assertThat(response)
                .startsWith("HTTP/1.1 101 Switching Protocols\r\n")
                .contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n")
                .endsWith("\r\n\r\n");
        assertThat(fresh.opened).isTrue();
        assertThat(fresh.engine.state()).isEqualTo(WebSocketEngine.State.OPEN);
        assertThat(fresh.engine.requestTarget()).isEqualTo("/chat");
        assertThat(fresh.engine.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void refusesRequestWithoutKeyWith400AndTransmitsNothing() {
        EnginePeer fresh = EnginePeer.server(WebSocketConfig.defaults());
        fresh.engine.start(NOW_NS);
        int status = fresh.acceptUpgrade(
                Frames.UPGRADE_REQUEST.replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", ""), NOW_NS);
        assertThat(status).isEqualTo(400);
        assertThat(fresh.wire.size())
                .as("the adapter answers through its HTTP codec")
                .isZero();
        assertThat(fresh.opened).isFalse();
        assertThat(fresh.closeCode).isEqualTo(CloseCodes.PROTOCOL_ERROR);
        assertThat(fresh.engine.transportAction()).isEqualTo(TransportAction.SHUT_DOWN_OUTPUT);
    }

    @Test
    void refusesOtherVersionsWith426() {
        EnginePeer fresh = EnginePeer.server(WebSocketConfig.defaults());
        fresh.engine.start(NOW_NS);
        assertThat(fresh.acceptUpgrade(Frames.UPGRADE_REQUEST.replace("Version: 13", "Version: 8"), NOW_NS))
                .isEqualTo(426);
    }

    @Test
    void refusesAPlainGetAndAPost() {
        for (String request : new String[] {
            "GET / HTTP/1.1\r\nHost: h\r\n\r\n", Frames.UPGRADE_REQUEST.replace("GET ", "POST "),
        }) {
            EnginePeer fresh = EnginePeer.server(WebSocketConfig.defaults());
            fresh.engine.start(NOW_NS);
            assertThat(fresh.acceptUpgrade(request, NOW_NS)).as(request).isEqualTo(400);
        }
    }

    @Test
    void handshakeTimesOutAtItsDeadlineAndClosesAtOnce() {
        EnginePeer fresh = EnginePeer.server(WebSocketConfig.defaults().withTimeouts(2_000, 1_000, 500));
        fresh.engine.start(NOW_NS);
        assertThat(fresh.engine.nextDeadlineNs()).isEqualTo(NOW_NS + 2_000);
        fresh.timeout(NOW_NS + 1_999);
        assertThat(fresh.engine.transportAction()).isEqualTo(TransportAction.KEEP_OPEN);
        fresh.timeout(NOW_NS + 2_000);
        assertThat(fresh.closeCode).isEqualTo(CloseCodes.ABNORMAL);
        assertThat(fresh.engine.transportAction()).isEqualTo(TransportAction.CLOSE);
    }

    @Test
    void framesBeforeTheUpgradeAreRefused() {
        EnginePeer fresh = EnginePeer.server(WebSocketConfig.defaults());
        fresh.engine.start(NOW_NS);
        byte[] frame = clientFrame(true, 0, Opcode.TEXT, utf8("early"));
        assertThatIllegalStateException().isThrownBy(() -> fresh.feed(frame, NOW_NS));
    }

    @Test
    void decodesSevenSixteenAndSixtyFourBitLengths() {
        EnginePeer big = EnginePeer.openServer(WebSocketConfig.defaults().withLimits(1 << 17, 1 << 17), NOW_NS);
        for (int length : new int[] {0, 125, 126, 65535, 65536, 70000}) {
            byte[] payload = new byte[length];
            Arrays.fill(payload, (byte) (length % 251));
            byte[] frame = clientFrame(true, 0, Opcode.BINARY, payload);
            int expectedHeader = 2 + (length < 126 ? 0 : length <= 65535 ? 2 : 8) + 4;
            assertThat(frame.length - length).isEqualTo(expectedHeader);
            big.feed(frame, NOW_NS);
            assertThat(big.messages.get(big.messages.size() - 1).payload()).isEqualTo(payload);
        }
    }

    @Test
    void nonMinimalLengthEncodingsFailWith1002() {
        byte[][] frames = {
            Frames.clientFrameInLengthForm(Opcode.TEXT, utf8("x"), 2),
            Frames.clientFrameInLengthForm(Opcode.BINARY, new byte[125], 2),
            Frames.clientFrameInLengthForm(Opcode.BINARY, new byte[126], 8),
            Frames.clientFrameInLengthForm(Opcode.BINARY, new byte[0], 8),
            Frames.clientFrameInLengthForm(Opcode.PING, new byte[3], 2),
        };
        for (byte[] frame : frames) {
            EnginePeer fresh = EnginePeer.openServer(WebSocketConfig.defaults().withLimits(1 << 17, 1 << 17), NOW_NS);
            fresh.feed(frame, NOW_NS);
            assertThat(fresh.closeCode).isEqualTo(CloseCodes.PROTOCOL_ERROR);
            assertThat(fresh.closeReason).isEqualTo("payload length not in its minimal form");
            assertThat(fresh.messages).isEmpty();
            byte[] wire = fresh.takeWire();
            assertThat(((wire[2] & 0xFF) << 8) | (wire[3] & 0xFF)).isEqualTo(CloseCodes.PROTOCOL_ERROR);
        }
        // The smallest lengths that do need the longer forms are fine.
        EnginePeer fresh = EnginePeer.openServer(WebSocketConfig.defaults().withLimits(1 << 17, 1 << 17), NOW_NS);
        fresh.feed(Frames.clientFrameInLengthForm(Opcode.BINARY, new byte[126], 2), NOW_NS);
        fresh.feed(Frames.clientFrameInLengthForm(Opcode.BINARY, new byte[65536], 8), NOW_NS);
        assertThat(fresh.messages).hasSize(2);
        assertThat(fresh.closeCode).isEqualTo(-1);
    }

    @Test
    void inputStopsAfterEachMessageSoOnlyOneIsHeld() {
        byte[] first = clientFrame(true, 0, Opcode.TEXT, utf8("one"));
        byte[] both = concat(first, clientFrame(true, 0, Opcode.TEXT, utf8("two")));
        WebSocketEngine engine = peer.engine;
        assertThat(engine.onBytes(both, 0, both.length, NOW_NS)).isEqualTo(first.length);
        assertThatIllegalStateException()
                .as("the next input waits until the event is polled")
                .isThrownBy(() -> engine.onBytes(both, first.length, both.length - first.length, NOW_NS));
        assertThat(engine.poll()).isEqualTo(WebSocketEngine.Event.MESSAGE);
        assertThat(new String(engine.messageArray(), 0, engine.messageLength(), StandardCharsets.UTF_8))
                .isEqualTo("one");
        assertThat(engine.poll()).isEqualTo(WebSocketEngine.Event.NONE);
        assertThat(engine.onBytes(both, first.length, both.length - first.length, NOW_NS))
                .isEqualTo(both.length - first.length);
        assertThat(engine.poll()).isEqualTo(WebSocketEngine.Event.MESSAGE);
        assertThat(new String(engine.messageArray(), 0, engine.messageLength(), StandardCharsets.UTF_8))
                .isEqualTo("two");
    }

    @Test
    void theInputIsNeverWritten() {
        byte[] frame = clientFrame(true, 0, Opcode.BINARY, new byte[300]);
        byte[] copy = frame.clone();
        feed(frame);
        assertThat(frame).isEqualTo(copy);
        assertThat(peer.messages.get(0).payload()).isEqualTo(new byte[300]);
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
        assertThat(peer.messages).hasSize(2);
        assertThat(new String(peer.messages.get(0).payload(), StandardCharsets.UTF_8))
                .isEqualTo("Hello, κόσμε");
        assertThat(peer.messages.get(1).payload()).hasSize(300);
    }

    @Test
    void answersPingInsideAFragmentedMessageWithPongBeforeTheMessageEnds() {
        feed(clientFrame(false, 0, Opcode.TEXT, utf8("frag1")));
        feed(clientFrame(true, 0, Opcode.PING, utf8("ping!")));
        byte[] pong = peer.takeWire();
        assertThat(pong).containsExactly(0x8A, 5, 'p', 'i', 'n', 'g', '!');
        assertThat(peer.messages).isEmpty();
        feed(clientFrame(true, 0, Opcode.CONTINUATION, utf8("frag2")));
        assertThat(peer.messages)
                .singleElement()
                .satisfies(m -> assertThat(new String(m.payload(), StandardCharsets.UTF_8))
                        .isEqualTo("frag1frag2"));
    }

    @Test
    void reportsPongsAsEvents() {
        feed(concat(clientFrame(true, 0, Opcode.PONG, utf8("hb")), clientFrame(true, 0, Opcode.PONG, utf8("2"))));
        assertThat(peer.pongs).containsExactly(utf8("hb"), utf8("2"));
    }

    @Test
    void sendsPingsOnlyWhileOpenAndAtMost125Bytes() {
        assertThat(peer.engine.sendPing(utf8("hi"), 0, 2)).isTrue();
        assertThat(peer.takeWire()).containsExactly(0x89, 2, 'h', 'i');
        assertThat(peer.engine.sendPing(new byte[126], 0, 126)).isFalse();
        peer.engine.close(CloseCodes.NORMAL, "", NOW_NS);
        assertThat(peer.engine.sendPing(utf8("hi"), 0, 2)).isFalse();
    }

    @Test
    void closeHandshakeEchoesTheCodeThenHalfClosesAndLingers() {
        feed(clientFrame(true, 0, Opcode.CLOSE, closePayload(1001, utf8("bye"))));
        assertThat(sentCloseCode()).isEqualTo(1001);
        assertThat(peer.closeCode).isEqualTo(1001);
        assertThat(peer.closeReason).isEqualTo("bye");
        assertThat(peer.engine.state()).isEqualTo(WebSocketEngine.State.CLOSED);
        assertThat(peer.engine.transportAction()).isEqualTo(TransportAction.SHUT_DOWN_OUTPUT);
        long lingerNs = WebSocketConfig.defaults().closeLingerNs();
        assertThat(peer.engine.nextDeadlineNs()).isEqualTo(NOW_NS + lingerNs);
        peer.timeout(NOW_NS + lingerNs - 1);
        assertThat(peer.engine.transportAction()).isEqualTo(TransportAction.SHUT_DOWN_OUTPUT);
        peer.timeout(NOW_NS + lingerNs);
        assertThat(peer.engine.transportAction()).isEqualTo(TransportAction.CLOSE);
        assertThat(peer.engine.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void thePeerClosingItsSideEndsTheLingerAtOnce() {
        feed(clientFrame(true, 0, Opcode.CLOSE, closePayload(1000, new byte[0])));
        peer.engine.onTransportClosed(NOW_NS + 1);
        peer.drain();
        assertThat(peer.engine.transportAction()).isEqualTo(TransportAction.CLOSE);
        assertThat(peer.closeCode).as("the close handshake's code stays").isEqualTo(1000);
    }

    @Test
    void emptyCloseIsAnsweredWithEmptyClose() {
        feed(clientFrame(true, 0, Opcode.CLOSE, new byte[0]));
        assertThat(peer.takeWire()).containsExactly(0x88, 0);
        assertThat(peer.closeCode).isEqualTo(CloseCodes.NO_STATUS);
    }

    @Test
    void invalidCloseCodesFailWith1002() {
        for (int code : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000}) {
            EnginePeer fresh = EnginePeer.openServer(WebSocketConfig.defaults(), NOW_NS);
            fresh.feed(clientFrame(true, 0, Opcode.CLOSE, closePayload(code, new byte[0])), NOW_NS);
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
        assertThat(peer.closeCode).isEqualTo(-1);
        // 0xF4 0x90 starts a code point above U+10FFFF: no continuation can make it valid.
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[] {(byte) 0xF4, (byte) 0x90}));
        assertThat(peer.closeCode).isEqualTo(CloseCodes.INVALID_PAYLOAD);
        assertThat(sentCloseCode()).isEqualTo(CloseCodes.INVALID_PAYLOAD);
    }

    @Test
    void invalidUtf8FailsWithinAFrameBeforeItsEnd() {
        byte[] frame =
                clientFrame(true, 0, Opcode.TEXT, concat(utf8("hello"), new byte[] {(byte) 0xC0, 'a', 'b', 'c'}));
        int offendingByteEnd = frame.length - 3;
        peer.feed(frame, 0, offendingByteEnd, NOW_NS);
        assertThat(peer.closeCode).isEqualTo(CloseCodes.INVALID_PAYLOAD);
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
        assertThat(peer.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo(euro));
    }

    @Test
    void frameLargerThanTheLimitFailsWith1009FromItsHeaderAlone() {
        byte[] header = new byte[FrameHeader.MAX_HEADER_BYTES];
        int headerBytes = FrameHeader.encode(header, 0, true, 0, Opcode.BINARY, 1001, true, 1);
        peer.feed(header, 0, headerBytes, NOW_NS);
        assertThat(sentCloseCode()).isEqualTo(CloseCodes.MESSAGE_TOO_BIG);
    }

    @Test
    void messageLargerThanTheLimitAcrossFragmentsFailsWith1009() {
        feed(clientFrame(false, 0, Opcode.BINARY, new byte[1000]));
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[1000]));
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[1000]));
        assertThat(peer.closeCode).isEqualTo(-1);
        feed(clientFrame(true, 0, Opcode.CONTINUATION, new byte[1000]));
        assertThat(peer.closeCode).isEqualTo(-1);
        feed(clientFrame(false, 0, Opcode.BINARY, new byte[1000]));
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[1000]));
        feed(clientFrame(false, 0, Opcode.CONTINUATION, new byte[1000]));
        feed(clientFrame(true, 0, Opcode.CONTINUATION, new byte[1001]));
        assertThat(peer.closeCode).isEqualTo(CloseCodes.MESSAGE_TOO_BIG);
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
            EnginePeer fresh = EnginePeer.openServer(WebSocketConfig.defaults(), NOW_NS);
            fresh.feed(violation, NOW_NS);
            assertThat(fresh.closeCode).isEqualTo(CloseCodes.PROTOCOL_ERROR);
            assertThat(fresh.engine.transportAction()).isEqualTo(TransportAction.SHUT_DOWN_OUTPUT);
            assertThat(fresh.messages).isEmpty();
        }
    }

    @Test
    void bytesAfterFailureAreIgnored() {
        feed(clientFrame(true, 0, 3, new byte[0]));
        peer.takeWire();
        feed(clientFrame(true, 0, Opcode.TEXT, utf8("late")));
        assertThat(peer.messages).isEmpty();
        assertThat(peer.wire.size()).isZero();
    }
}
