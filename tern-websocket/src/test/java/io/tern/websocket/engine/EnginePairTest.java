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
        pair.client.sendText(hello, 0, hello.length);
        byte[] onWire = pair.clientSink.wire.toByteArray();
        assertThat(onWire[1] & 0x80).as("mask bit").isEqualTo(0x80);
        pair.pump();
        assertThat(pair.serverSink.messages).singleElement().satisfies(m -> {
            assertThat(m.text()).isTrue();
            assertThat(m.payload()).isEqualTo(hello);
        });
        pair.server.sendBinary(new byte[] {1, 2, 3}, 0, 3);
        assertThat(pair.serverSink.wire.toByteArray()[1] & 0x80)
                .as("server frames unmasked")
                .isZero();
        pair.pump();
        assertThat(pair.clientSink.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).containsExactly(1, 2, 3));
    }

    @Test
    void autoFragmentedMessagesReassemble() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults().withAutoFragmentBytes(7));
        byte[] text = "fragmented across several frames".getBytes(StandardCharsets.UTF_8);
        pair.client.sendText(text, 0, text.length);
        assertThat(pair.clientSink.wire.size()).as("five masked frames").isEqualTo(text.length + 5 * (2 + 4));
        pair.pump();
        assertThat(pair.serverSink.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo(text));
    }

    @Test
    void clientInitiatedCloseCompletesBothSides() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        pair.client.close(CloseCodes.NORMAL, "done", pair.nowNs);
        assertThat(pair.client.state()).isEqualTo(WebSocketEngine.State.CLOSING);
        pair.pump();
        assertThat(pair.server.state()).isEqualTo(WebSocketEngine.State.CLOSED);
        assertThat(pair.client.state()).isEqualTo(WebSocketEngine.State.CLOSED);
        assertThat(pair.serverSink.closeReason).isEqualTo("done");
        assertThat(pair.clientSink.closeCode).isEqualTo(CloseCodes.NORMAL);
        assertThat(pair.client.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void unansweredCloseTimesOutOnTheInjectedClock() {
        WebSocketConfig config = WebSocketConfig.defaults().withTimeouts(10_000, 3_000);
        EnginePair pair = EnginePair.open(config);
        pair.server.close(CloseCodes.GOING_AWAY, "", pair.nowNs);
        pair.serverSink.takeWire();
        assertThat(pair.server.nextDeadlineNs()).isEqualTo(pair.nowNs + 3_000);
        pair.server.onTimeout(pair.nowNs + 2_999);
        assertThat(pair.serverSink.closeTransportCalls).isZero();
        pair.server.onTimeout(pair.nowNs + 3_000);
        assertThat(pair.serverSink.closeTransportCalls).isEqualTo(1);
        assertThat(pair.serverSink.closeCode).isEqualTo(CloseCodes.ABNORMAL);
    }

    @Test
    void noMessagesAfterClose() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        pair.server.close(CloseCodes.NORMAL, "", pair.nowNs);
        assertThat(pair.server.sendBinary(new byte[1], 0, 1)).isFalse();
    }

    @Test
    void closeRejectsCodesThatMayNotBeSent() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> pair.client.close(CloseCodes.ABNORMAL, "", pair.nowNs));
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> pair.client.close(CloseCodes.NORMAL, "x".repeat(124), pair.nowNs));
    }

    @Test
    void clientFailsOnAWrongAcceptKey() {
        RecordingSink sink = new RecordingSink();
        WebSocketEngine client =
                WebSocketEngine.client(WebSocketConfig.defaults(), sink, new SplittableRandom(1), "h", "/");
        client.start(0);
        byte[] response = ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        client.onBytes(response, 0, response.length, 0);
        assertThat(client.state()).isEqualTo(WebSocketEngine.State.CLOSED);
        assertThat(sink.closeTransportCalls).isEqualTo(1);
        assertThat(sink.opened).isFalse();
    }

    @Test
    void clientRejectsMaskedServerFrames() {
        EnginePair pair = EnginePair.open(WebSocketConfig.defaults());
        byte[] masked = Frames.frame(true, 0, 1, "x".getBytes(StandardCharsets.UTF_8), true);
        pair.client.onBytes(masked, 0, masked.length, pair.nowNs);
        assertThat(pair.clientSink.closeCode).isEqualTo(CloseCodes.PROTOCOL_ERROR);
    }

    @Test
    void subprotocolIsNegotiatedInServerPreferenceOrder() {
        WebSocketConfig client = WebSocketConfig.defaults().withSubprotocols(List.of("chat.v1", "chat.v2"));
        WebSocketConfig server = WebSocketConfig.defaults().withSubprotocols(List.of("chat.v2", "chat.v1"));
        EnginePair pair = new EnginePair(client, server);
        assertThat(pair.server.subprotocol()).isEqualTo("chat.v2");
        assertThat(pair.client.subprotocol()).isEqualTo("chat.v2");
    }

    @Test
    void compressedMessagesRoundTripAndSetRsv1() {
        CodecPool pool = new CodecPool(6, 8);
        WebSocketConfig config = WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(pool));
        EnginePair pair = EnginePair.open(config);
        assertThat(pair.server.deflateParameters()).isNotNull();
        byte[] text = "compress me ".repeat(200).getBytes(StandardCharsets.UTF_8);
        pair.client.sendText(text, 0, text.length);
        byte[] wire = pair.clientSink.wire.toByteArray();
        assertThat(wire[0] & 0x40).as("RSV1").isEqualTo(0x40);
        assertThat(wire.length).isLessThan(text.length / 10);
        pair.pump();
        assertThat(pair.serverSink.messages)
                .singleElement()
                .satisfies(m -> assertThat(m.payload()).isEqualTo(text));
    }

    @Test
    void emptyCompressedMessageAfterAFlushRoundTripsWithContextTakeover() {
        CodecPool pool = new CodecPool(6, 8);
        EnginePair pair =
                EnginePair.open(WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(pool)));
        byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
        pair.client.sendText(hello, 0, hello.length);
        pair.client.sendText(new byte[0], 0, 0);
        pair.client.sendText(hello, 0, hello.length);
        pair.pump();
        assertThat(pair.serverSink.messages)
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
        pair.client.sendBinary(zeros, 0, zeros.length);
        assertThat(pair.clientSink.wire.size()).isLessThan(200);
        pair.pump();
        assertThat(pair.serverSink.closeCode).isEqualTo(CloseCodes.MESSAGE_TOO_BIG);
    }

    @Test
    void withoutContextTakeoverIdleConnectionsHoldNoCodecs() {
        CodecPool pool = new CodecPool(6, 8);
        WebSocketConfig config =
                WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.noContextTakeover(pool));
        EnginePair pair = EnginePair.open(config);
        pair.serverSink.echo = true;
        byte[] text = "idle after this".getBytes(StandardCharsets.UTF_8);
        pair.client.sendText(text, 0, text.length);
        pair.pump();
        assertThat(pair.clientSink.messages)
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
        pair.serverSink.echo = true;
        byte[] text = "context".getBytes(StandardCharsets.UTF_8);
        pair.client.sendText(text, 0, text.length);
        pair.pump();
        assertThat(pool.deflatersInUse()).isEqualTo(2);
        pair.client.close(CloseCodes.NORMAL, "", pair.nowNs);
        pair.pump();
        assertThat(pool.deflatersInUse()).isZero();
        assertThat(pool.inflatersInUse()).isZero();
    }
}
