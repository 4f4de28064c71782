package io.tern.websocket.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.deflate.CodecPool;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import io.tern.websocket.engine.WebSocketEngine.TransportAction;
import io.tern.websocket.frame.Opcode;
import io.tern.websocket.handshake.HttpHead;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Fuzzes the frame decoder and the handshakes, on both sides: no exception may escape, and the
 * engine ends either waiting for more bytes or closed with a code it is allowed to report.
 */
class DecoderFuzzTest {
    private static final int MAX_MESSAGE_BYTES = 4096;
    private static final CodecPool POOL = new CodecPool(1, 4);

    private static void assertBoundedOutcome(EnginePeer peer) {
        if (peer.closed()) {
            assertThat(peer.engine.transportAction()).isNotEqualTo(TransportAction.KEEP_OPEN);
            boolean reportable = CloseCodes.isValidOnWire(peer.closeCode)
                    || peer.closeCode == CloseCodes.NO_STATUS
                    || peer.closeCode == CloseCodes.ABNORMAL;
            assertThat(reportable).as("close code %d", peer.closeCode).isTrue();
        } else {
            assertThat(peer.engine.transportAction()).isEqualTo(TransportAction.KEEP_OPEN);
            assertThat(peer.closeCode).isEqualTo(-1);
        }
        for (EnginePeer.Message m : peer.messages) {
            assertThat(m.payload().length).isLessThanOrEqualTo(MAX_MESSAGE_BYTES);
        }
    }

    private static EnginePeer openServer() {
        WebSocketConfig config = WebSocketConfig.defaults()
                .withLimits(MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES)
                .withDeflate(PerMessageDeflateConfig.honourOffers(POOL));
        EnginePeer peer = EnginePeer.server(config);
        peer.engine.start(0);
        peer.acceptUpgrade(
                Frames.UPGRADE_REQUEST.replace("\r\n\r\n", "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n"),
                0);
        peer.takeWire();
        return peer;
    }

    @Property(tries = 1000)
    void randomBytesAfterTheHandshake(@ForAll @Size(max = 300) List<@Size(max = 64) byte[]> reads) {
        EnginePeer peer = openServer();
        for (byte[] read : reads) {
            peer.feed(read, 0);
        }
        assertBoundedOutcome(peer);
    }

    /** Frames as a careless or hostile peer builds them, lengths in every form, minimal or not. */
    @Provide
    Arbitrary<byte[]> plausibleFrames() {
        Arbitrary<Integer> opcodes = Arbitraries.of(
                Opcode.CONTINUATION, Opcode.TEXT, Opcode.BINARY, Opcode.CLOSE, Opcode.PING, Opcode.PONG, 3, 11);
        Arbitrary<byte[]> wellFormed = Combinators.combine(
                        Arbitraries.of(true, false),
                        Arbitraries.of(0, 0, 0x40, 0x20),
                        opcodes,
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(200),
                        Arbitraries.of(true, true, false))
                .as((fin, rsv, opcode, payload, masked) -> Frames.frame(fin, rsv, opcode, payload, masked));
        Arbitrary<byte[]> longForms = Combinators.combine(
                        opcodes, Arbitraries.bytes().array(byte[].class).ofMaxSize(200), Arbitraries.of(2, 8))
                .as(Frames::clientFrameInLengthForm);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, wellFormed), net.jqwik.api.Tuple.of(1, longForms));
    }

    @Property(tries = 1000)
    void sequencesOfPlausibleFramesSplitAnywhere(
            @ForAll @Size(max = 12) List<@From("plausibleFrames") byte[]> frames,
            @ForAll @IntRange(min = 1, max = 50) int readBytes) {
        EnginePeer peer = openServer();
        byte[] stream = Frames.concat(frames.toArray(byte[][]::new));
        for (int i = 0; i < stream.length; i += readBytes) {
            peer.feed(stream, i, Math.min(readBytes, stream.length - i), 0);
        }
        assertBoundedOutcome(peer);
    }

    /** RFC 6455 §5.2: a length in a longer form than it needs is a protocol error, whatever the length. */
    @Property(tries = 300)
    void lengthsInALongerFormThanNeededFailWith1002(
            @ForAll @IntRange(max = 70_000) int payloadBytes,
            @ForAll("lengthForms") int lengthBytes,
            @ForAll @IntRange(min = 1, max = 9000) int readBytes) {
        Assume.that(lengthBytes == 8 || payloadBytes <= 0xFFFF);
        EnginePeer peer = EnginePeer.openServer(WebSocketConfig.defaults().withLimits(1 << 17, 1 << 17), 0);
        byte[] frame = Frames.clientFrameInLengthForm(Opcode.BINARY, new byte[payloadBytes], lengthBytes);
        for (int i = 0; i < frame.length; i += readBytes) {
            peer.feed(frame, i, Math.min(readBytes, frame.length - i), 0);
        }
        boolean minimal = lengthBytes == 2 ? payloadBytes >= 126 && payloadBytes <= 0xFFFF : payloadBytes > 0xFFFF;
        if (minimal) {
            assertThat(peer.messages).hasSize(1);
            assertThat(peer.closeCode).isEqualTo(-1);
        } else {
            assertThat(peer.messages).isEmpty();
            assertThat(peer.closeCode).isEqualTo(CloseCodes.PROTOCOL_ERROR);
        }
    }

    @Provide
    Arbitrary<Integer> lengthForms() {
        return Arbitraries.of(2, 8);
    }

    /** A request the server's HTTP codec decoded, with one byte changed: 101 with an answer, or a refusal. */
    @Property(tries = 1000)
    void mutatedHandshakeRequests(@ForAll @IntRange(max = 300) int position, @ForAll byte replacement) {
        byte[] request = Frames.UPGRADE_REQUEST
                .replace("\r\n\r\n", "\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        request[Math.min(position, request.length - 5)] = replacement;
        assertAnswered(HttpHead.parse(request, 0, request.length));
    }

    @Property(tries = 1000)
    void arbitraryRequestHeads(@ForAll @Size(max = 600) byte[] bytes) {
        byte[] head = Frames.concat(bytes, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertAnswered(HttpHead.parse(head, 0, head.length));
    }

    private static void assertAnswered(HttpHead head) {
        if (head == null) {
            return; // A codec refuses a malformed head before the engine sees it.
        }
        EnginePeer peer =
                EnginePeer.server(WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(POOL)));
        peer.engine.start(0);
        int status = peer.engine.acceptUpgrade(head, 0);
        peer.drain();
        String response = new String(peer.takeWire(), StandardCharsets.ISO_8859_1);
        if (status == 101) {
            assertThat(peer.opened).isTrue();
            assertThat(response).startsWith("HTTP/1.1 101 ").endsWith("\r\n\r\n");
        } else {
            assertThat(status).isIn(400, 426);
            assertThat(response).isEmpty();
            assertThat(peer.closed()).isTrue();
        }
    }

    private static WebSocketConfig clientConfig() {
        return WebSocketConfig.defaults()
                .withLimits(MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES)
                .withDeflate(PerMessageDeflateConfig.honourOffers(POOL).withClientOffer(true, 10, false));
    }

    /** A client engine that has sent its request, and the answer a real server engine gives to it. */
    private static byte[] startClient(EnginePeer client) {
        client.engine.start(0);
        byte[] request = client.takeWire();
        EnginePeer server =
                EnginePeer.server(WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(POOL)));
        server.engine.start(0);
        server.acceptUpgrade(new String(request, StandardCharsets.ISO_8859_1), 0);
        return server.takeWire();
    }

    @Property(tries = 1000)
    void mutatedHandshakeResponses(
            @ForAll long seed,
            @ForAll @IntRange(max = 300) int position,
            @ForAll byte replacement,
            @ForAll @IntRange(min = 1, max = 400) int readBytes) {
        EnginePeer client = EnginePeer.client(clientConfig(), new SplittableRandom(seed), "localhost", "/");
        byte[] response = startClient(client);
        response[Math.min(position, response.length - 1)] = replacement;
        for (int i = 0; i < response.length; i += readBytes) {
            client.feed(response, i, Math.min(readBytes, response.length - i), 0);
        }
        assertBoundedOutcome(client);
    }

    @Property(tries = 1000)
    void arbitraryHandshakeResponseBytes(@ForAll @Size(max = 600) byte[] bytes) {
        EnginePeer client = EnginePeer.client(clientConfig(), new SplittableRandom(1), "localhost", "/");
        client.engine.start(0);
        client.takeWire();
        client.feed(bytes, 0);
        assertThat(client.engine.state()).isIn(WebSocketEngine.State.CONNECTING, WebSocketEngine.State.CLOSED);
        assertBoundedOutcome(client);
    }

    @Property(tries = 1000)
    void serverFramesSplitAnywhereAtAClient(
            @ForAll @Size(max = 12) List<@From("plausibleFrames") byte[]> frames,
            @ForAll @IntRange(min = 1, max = 50) int readBytes) {
        EnginePeer client = EnginePeer.client(clientConfig(), new SplittableRandom(2), "localhost", "/");
        byte[] response = startClient(client);
        client.feed(response, 0);
        assertThat(client.engine.state()).isEqualTo(WebSocketEngine.State.OPEN);
        byte[] stream = Frames.concat(frames.toArray(byte[][]::new));
        for (int i = 0; i < stream.length; i += readBytes) {
            client.feed(stream, i, Math.min(readBytes, stream.length - i), 0);
        }
        assertBoundedOutcome(client);
    }
}
