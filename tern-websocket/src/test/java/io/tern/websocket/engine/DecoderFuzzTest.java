package io.tern.websocket.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.deflate.CodecPool;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import io.tern.websocket.frame.Opcode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Fuzzes the frame decoder and the handshake parser, on both sides: no exception may escape, and
 * the engine ends either waiting for more bytes or closed with a code it is allowed to report.
 */
class DecoderFuzzTest {
    private static final int MAX_MESSAGE_BYTES = 4096;
    private static final CodecPool POOL = new CodecPool(1, 4);

    private static void assertBoundedOutcome(WebSocketEngine engine, RecordingSink sink) {
        if (engine.state() == WebSocketEngine.State.CLOSED) {
            assertThat(sink.closeTransportCalls).isEqualTo(1);
            boolean reportable = CloseCodes.isValidOnWire(sink.closeCode)
                    || sink.closeCode == CloseCodes.NO_STATUS
                    || sink.closeCode == CloseCodes.ABNORMAL;
            assertThat(reportable).as("close code %d", sink.closeCode).isTrue();
        } else {
            assertThat(sink.closeTransportCalls).isZero();
        }
        for (RecordingSink.Message m : sink.messages) {
            assertThat(m.payload().length).isLessThanOrEqualTo(MAX_MESSAGE_BYTES);
        }
    }

    private static WebSocketEngine openServer(RecordingSink sink) {
        WebSocketConfig config = WebSocketConfig.defaults()
                .withLimits(MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES)
                .withDeflate(PerMessageDeflateConfig.honourOffers(POOL));
        WebSocketEngine engine = WebSocketEngine.server(config, sink);
        engine.start(0);
        byte[] request = Frames.UPGRADE_REQUEST
                .replace("\r\n\r\n", "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        engine.onBytes(request, 0, request.length, 0);
        sink.takeWire();
        return engine;
    }

    @Property(tries = 1000)
    void randomBytesAfterTheHandshake(@ForAll @Size(max = 300) List<@Size(max = 64) byte[]> reads) {
        RecordingSink sink = new RecordingSink();
        WebSocketEngine engine = openServer(sink);
        for (byte[] read : reads) {
            engine.onBytes(read, 0, read.length, 0);
        }
        assertBoundedOutcome(engine, sink);
    }

    @Provide
    Arbitrary<byte[]> plausibleFrames() {
        Arbitrary<Integer> opcodes = Arbitraries.of(
                Opcode.CONTINUATION, Opcode.TEXT, Opcode.BINARY, Opcode.CLOSE, Opcode.PING, Opcode.PONG, 3, 11);
        return Combinators.combine(
                        Arbitraries.of(true, false),
                        Arbitraries.of(0, 0, 0x40, 0x20),
                        opcodes,
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(200),
                        Arbitraries.of(true, true, false))
                .as((fin, rsv, opcode, payload, masked) -> Frames.frame(fin, rsv, opcode, payload, masked));
    }

    @Property(tries = 1000)
    void sequencesOfPlausibleFramesSplitAnywhere(
            @ForAll @Size(max = 12) List<@net.jqwik.api.From("plausibleFrames") byte[]> frames,
            @ForAll @IntRange(min = 1, max = 50) int readBytes) {
        RecordingSink sink = new RecordingSink();
        WebSocketEngine engine = openServer(sink);
        byte[] stream = Frames.concat(frames.toArray(byte[][]::new));
        for (int i = 0; i < stream.length; i += readBytes) {
            engine.onBytes(stream, i, Math.min(readBytes, stream.length - i), 0);
        }
        assertBoundedOutcome(engine, sink);
    }

    @Property(tries = 1000)
    void mutatedHandshakeRequests(
            @ForAll @IntRange(max = 300) int position,
            @ForAll byte replacement,
            @ForAll @IntRange(min = 1, max = 400) int readBytes) {
        RecordingSink sink = new RecordingSink();
        WebSocketEngine engine = WebSocketEngine.server(
                WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(POOL)), sink);
        engine.start(0);
        byte[] request = Frames.UPGRADE_REQUEST
                .replace("\r\n\r\n", "\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        request[Math.min(position, request.length - 1)] = replacement;
        for (int i = 0; i < request.length; i += readBytes) {
            engine.onBytes(request, i, Math.min(readBytes, request.length - i), 0);
        }
        String response = new String(sink.takeWire(), StandardCharsets.ISO_8859_1);
        switch (engine.state()) {
            case OPEN -> assertThat(response).startsWith("HTTP/1.1 101 ");
            case CONNECTING -> assertThat(response).isEmpty();
            case CLOSED -> assertThat(response).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
            default -> throw new AssertionError("unexpected state " + engine.state());
        }
    }

    @Property(tries = 1000)
    void arbitraryHandshakeBytes(@ForAll @Size(max = 600) byte[] bytes) {
        RecordingSink sink = new RecordingSink();
        WebSocketEngine engine = WebSocketEngine.server(WebSocketConfig.defaults(), sink);
        engine.start(0);
        engine.onBytes(bytes, 0, bytes.length, 0);
        assertThat(engine.state()).isIn(WebSocketEngine.State.CONNECTING, WebSocketEngine.State.CLOSED);
        assertBoundedOutcome(engine, sink);
    }

    private static WebSocketConfig clientConfig() {
        return WebSocketConfig.defaults()
                .withLimits(MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES)
                .withDeflate(PerMessageDeflateConfig.honourOffers(POOL).withClientOffer(true, 10, false));
    }

    /** A client engine that has sent its request, and the answer a real server engine gives to it. */
    private static byte[] startClient(WebSocketEngine client, RecordingSink clientSink) {
        client.start(0);
        byte[] request = clientSink.takeWire();
        RecordingSink serverSink = new RecordingSink();
        WebSocketEngine server = WebSocketEngine.server(
                WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(POOL)), serverSink);
        server.start(0);
        server.onBytes(request, 0, request.length, 0);
        return serverSink.takeWire();
    }

    @Property(tries = 1000)
    void mutatedHandshakeResponses(
            @ForAll long seed,
            @ForAll @IntRange(max = 300) int position,
            @ForAll byte replacement,
            @ForAll @IntRange(min = 1, max = 400) int readBytes) {
        RecordingSink sink = new RecordingSink();
        WebSocketEngine client =
                WebSocketEngine.client(clientConfig(), sink, new SplittableRandom(seed), "localhost", "/");
        byte[] response = startClient(client, sink);
        response[Math.min(position, response.length - 1)] = replacement;
        for (int i = 0; i < response.length; i += readBytes) {
            client.onBytes(response, i, Math.min(readBytes, response.length - i), 0);
        }
        assertBoundedOutcome(client, sink);
    }

    @Property(tries = 1000)
    void arbitraryHandshakeResponseBytes(@ForAll @Size(max = 600) byte[] bytes) {
        RecordingSink sink = new RecordingSink();
        WebSocketEngine client =
                WebSocketEngine.client(clientConfig(), sink, new SplittableRandom(1), "localhost", "/");
        client.start(0);
        sink.takeWire();
        client.onBytes(bytes, 0, bytes.length, 0);
        assertThat(client.state()).isIn(WebSocketEngine.State.CONNECTING, WebSocketEngine.State.CLOSED);
        assertBoundedOutcome(client, sink);
    }

    @Property(tries = 1000)
    void serverFramesSplitAnywhereAtAClient(
            @ForAll @Size(max = 12) List<@net.jqwik.api.From("plausibleFrames") byte[]> frames,
            @ForAll @IntRange(min = 1, max = 50) int readBytes) {
        RecordingSink sink = new RecordingSink();
        WebSocketEngine client =
                WebSocketEngine.client(clientConfig(), sink, new SplittableRandom(2), "localhost", "/");
        byte[] response = startClient(client, sink);
        client.onBytes(response, 0, response.length, 0);
        assertThat(client.state()).isEqualTo(WebSocketEngine.State.OPEN);
        byte[] stream = Frames.concat(frames.toArray(byte[][]::new));
        for (int i = 0; i < stream.length; i += readBytes) {
            client.onBytes(stream, i, Math.min(readBytes, stream.length - i), 0);
        }
        assertBoundedOutcome(client, sink);
    }
}
