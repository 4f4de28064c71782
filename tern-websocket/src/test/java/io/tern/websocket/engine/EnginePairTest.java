package io.tern.websocket.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.deflate.CodecPool;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Client and server engines talking to each other in memory, on simulated time. */
class EnginePairTest {

    @Test
    void messagesFlowBothWaysAndClientFramesAreMasked() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
        pair.client.engine.sendText(hello, 0, hello.length);
        byte[] onWire = pair.client.wire.peek();
        assertThat(onWire[1] & 0x80).as("mask bit").isEqualTo(0x80);
        pair.pump();
        assertThat(pair.server.messages).singleElement().satisfies(m -> {
            assertThat(m.text()).isTrue();
            assertThat(m.payload()).isEqualTo(hello);
        });
        pair.server.engine.sendBinary(new byte[] {1, 2, 3}, 0, 3);
        assertThat(pair.server.wire.peek()[1] & 0x80)
                .as("server frames unmasked")
                .isZero();
        pair.pump();
        assertThat(pair.client.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).containsExactly(1, 2, 3));
    }

    @Test
    void autoFragmentedMessagesReassemble() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults().withAutoFragmentBytes(7));
        byte[] text = "fragmented across several frames".getBytes(StandardCharsets.UTF_8);
        pair.client.engine.sendText(text, 0, text.length);
        assertThat(pair.client.wire.size()).as("five masked frames").isEqualTo(text.length + 5 * (2 + 4));
        pair.pump();
        assertThat(pair.server.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo(text));
    }

    @Test
    void clientInitiatedCloseCompletesBothSides() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        pair.client.engine.close(CloseCodes.NORMAL, "done", pair.nowNs);
        assertThat(pair.client.engine.state()).isEqualTo(WebSocketEngine.State.CLOSING);
        pair.pump();
        assertThat(pair.server.engine.state()).isEqualTo(WebSocketEngine.State.CLOSED);
        assertThat(pair.client.engine.state()).isEqualTo(WebSocketEngine.State.CLOSED);
        assertThat(pair.server.closeReason).isEqualTo("done");
        assertThat(pair.client.closeCode).isEqualTo(CloseCodes.NORMAL);
        assertThat(pair.client.engine.transportAction()).isEqualTo(WebSocketEngine.TransportAction.SHUT_DOWN_OUTPUT);
        assertThat(pair.client.engine.nextDeadlineNs())
                .as("only the linger is left")
                .isEqualTo(pair.nowNs + WebSocketConfig.defaults().closeLingerNs());
    }

    @Test
    void unansweredCloseTimesOutOnTheInjectedClock() {
        WebSocketConfig config = WebSocketConfig.defaults().withTimeouts(10_000, 3_000, 1_000);
        EnginePair pair = EnginePair.open(config);
        pair.server.engine.close(CloseCodes.GOING_AWAY, "", pair.nowNs);
        pair.server.takeWire();
        assertThat(pair.server.engine.nextDeadlineNs()).isEqualTo(pair.nowNs + 3_000);
        pair.server.timeout(pair.nowNs + 2_999);
        assertThat(pair.server.engine.transportAction()).isEqualTo(WebSocketEngine.TransportAction.KEEP_OPEN);
        pair.server.timeout(pair.nowNs + 3_000);
        assertThat(pair.server.engine.transportAction()).isEqualTo(WebSocketEngine.TransportAction.CLOSE);
        assertThat(pair.server.closeCode).isEqualTo(CloseCodes.ABNORMAL);
    }

    @Test
    void noMessagesAfterClose() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        pair.server.engine.close(CloseCodes.NORMAL, "", pair.nowNs);
        assertThat(pair.server.engine.sendBinary(new byte[1], 0, 1)).isFalse();
    }

    @Test
    void closeRejectsCodesThatMayNotBeSent() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> pair.client.engine.close(CloseCodes.ABNORMAL, "", pair.nowNs));
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> pair.client.engine.close(CloseCodes.NORMAL, "x".repeat(124), pair.nowNs));
    }

    @Test
    void clientFailsOnAWrongAcceptKey() {
        EnginePeer client = EnginePeer.client(WebSocketConfig.defaults(), new SplittableRandom(1), "h", "/");
        client.engine.start(0);
        byte[] response = ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        client.feed(response, 0);
        assertThat(client.engine.state()).isEqualTo(WebSocketEngine.State.CLOSED);
        assertThat(client.closeReason).isEqualTo("wrong Sec-WebSocket-Accept");
        assertThat(client.opened).isFalse();
    }

    @Test
    void clientGivesUpOnAnOversizedAnswerWithoutBufferingMore() {
        EnginePeer client = EnginePeer.client(WebSocketConfig.defaults(), new SplittableRandom(1), "h", "/");
        client.engine.start(0);
        byte[] junk = new byte[100_000];
        java.util.Arrays.fill(junk, (byte) 'a');
        client.feed(junk, 0);
        assertThat(client.closeReason).isEqualTo("handshake too large");
        assertThat(client.engine.transportAction()).isEqualTo(WebSocketEngine.TransportAction.SHUT_DOWN_OUTPUT);
    }

    @Test
    void framesInTheSameReadAsTheAnswerAreDecodedAfterOpened() {
        EnginePeer client = EnginePeer.client(WebSocketConfig.defaults(), new SplittableRandom(1), "h", "/");
        EnginePeer server = EnginePeer.server(WebSocketConfig.defaults());
        client.engine.start(0);
        server.engine.start(0);
        byte[] request = client.takeWire();
        server.acceptUpgrade(new String(request, StandardCharsets.ISO_8859_1), 0);
        server.engine.sendText("early".getBytes(StandardCharsets.UTF_8), 0, 5);
        byte[] answerAndFrame = server.takeWire();
        assertThat(client.engine.onBytes(answerAndFrame, 0, answerAndFrame.length, 0))
                .isEqualTo(answerAndFrame.length - 7);
        assertThat(client.engine.poll()).isEqualTo(WebSocketEngine.Event.OPENED);
        assertThat(client.engine.poll()).isEqualTo(WebSocketEngine.Event.NONE);
        client.feed(answerAndFrame, answerAndFrame.length - 7, 7, 0);
        assertThat(client.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo("early".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void clientRejectsMaskedServerFrames() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        byte[] masked = Frames.frame(true, 0, 1, "x".getBytes(StandardCharsets.UTF_8), true);
        pair.client.feed(masked, pair.nowNs);
        assertThat(pair.client.closeCode).isEqualTo(CloseCodes.PROTOCOL_ERROR);
    }

    @Test
    void subprotocolIsNegotiatedInServerPreferenceOrder() {
        WebSocketConfig client = WebSocketConfig.defaults().withSubprotocols(List.of("chat.v1", "chat.v2"));
        WebSocketConfig server = WebSocketConfig.defaults().withSubprotocols(List.of("chat.v2", "chat.v1"));
        EnginePair pair = new EnginePair(client, server);
        assertThat(pair.server.engine.subprotocol()).isEqualTo("chat.v2");
        assertThat(pair.client.engine.subprotocol()).isEqualTo("chat.v2");
    }

    @Test
    void compressedMessagesRoundTripAndSetRsv1() {
        CodecPool pool = new CodecPool(6, 8);
        WebSocketConfig config = WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(pool));
        EnginePair pair = EnginePair.open(config);
        assertThat(pair.server.engine.deflateParameters()).isNotNull();
        byte[] text = "compress me ".repeat(200).getBytes(StandardCharsets.UTF_8);
        pair.client.engine.sendText(text, 0, text.length);
        byte[] wire = pair.client.wire.peek();
        assertThat(wire[0] & 0x40).as("RSV1").isEqualTo(0x40);
        assertThat(wire.length).isLessThan(text.length / 10);
        pair.pump();
        assertThat(pair.server.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo(text));
    }

    @Test
    void emptyCompressedMessageAfterAFlushRoundTripsWithContextTakeover() {
        CodecPool pool = new CodecPool(6, 8);
        EnginePair pair =
                EnginePair.open(WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(pool)));
        byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
        pair.client.engine.sendText(hello, 0, hello.length);
        pair.client.engine.sendText(new byte[0], 0, 0);
        pair.client.engine.sendText(hello, 0, hello.length);
        pair.pump();
        assertThat(pair.server.messages)
                .extracting(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .containsExactly("hello", "", "hello");
    }

    @Test
    void compressedMessageInflatingPastTheLimitFailsWith1009() {
        CodecPool pool = new CodecPool(6, 8);
        WebSocketConfig client = WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(pool));
        WebSocketConfig server = client.withLimits(1 << 20, 10_000);
        EnginePair pair = new EnginePair(client, server);
        byte[] zeros = new byte[10_001];
        pair.client.engine.sendBinary(zeros, 0, zeros.length);
        assertThat(pair.client.wire.size()).isLessThan(200);
        pair.pump();
        assertThat(pair.server.closeCode).isEqualTo(CloseCodes.MESSAGE_TOO_BIG);
    }

    @Test
    void withoutContextTakeoverIdleConnectionsHoldNoCodecs() {
        CodecPool pool = new CodecPool(6, 8);
        WebSocketConfig config =
                WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.noContextTakeover(pool));
        EnginePair pair = EnginePair.open(config);
        pair.server.echo = true;
        byte[] text = "idle after this".getBytes(StandardCharsets.UTF_8);
        pair.client.engine.sendText(text, 0, text.length);
        pair.pump();
        assertThat(pair.client.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo(text));
        assertThat(pool.deflatersInUse()).isZero();
        assertThat(pool.inflatersInUse()).isZero();
    }

    @Test
    void withContextTakeoverCodecsAreReturnedWhenTheConnectionCloses() {
        CodecPool pool = new CodecPool(6, 8);
        WebSocketConfig config = WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(pool));
        EnginePair pair = EnginePair.open(config);
        pair.server.echo = true;
        byte[] text = "context".getBytes(StandardCharsets.UTF_8);
        pair.client.engine.sendText(text, 0, text.length);
        pair.pump();
        assertThat(pool.deflatersInUse()).isEqualTo(2);
        pair.client.engine.close(CloseCodes.NORMAL, "", pair.nowNs);
        pair.pump();
        assertThat(pool.deflatersInUse()).isZero();
        assertThat(pool.inflatersInUse()).isZero();
    }
}
