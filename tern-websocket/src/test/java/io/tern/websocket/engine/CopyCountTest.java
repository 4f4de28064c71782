package io.tern.websocket.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.deflate.CodecPool;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import io.tern.websocket.frame.Opcode;
import io.tern.websocket.handshake.HttpHead;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Counts, at the engine's two edges, how often a message's bytes are copied: a received payload is
 * read out of the transport's buffer exactly once (into the message the application sees, unmasked
 * there), and an echoed payload is written into the transport's buffer exactly once, beside its
 * header. The previous adapter copied each echoed message three times (into a scratch array, into
 * the message, into the batch buffer), and a client copied its payload twice more to mask it.
 */
class CopyCountTest {
    private static final int PAYLOAD_BYTES = 10_000;

    /** Counts the bytes bulk-copied out of (getBytes) and into (putBytes) the memory it wraps. */
    private static final class CountingBuffer extends UnsafeBuffer {
        long bytesCopiedOut;
        long bytesCopiedIn;

        CountingBuffer() {
            super(0, 0);
        }

        @Override
        public void getBytes(int index, byte[] dst, int offset, int length) {
            bytesCopiedOut += length;
            super.getBytes(index, dst, offset, length);
        }

        @Override
        public void getBytes(int index, MutableDirectBuffer dst, int dstIndex, int length) {
            bytesCopiedOut += length;
            super.getBytes(index, dst, dstIndex, length);
        }

        @Override
        public void putBytes(int index, byte[] src, int offset, int length) {
            bytesCopiedIn += length;
            super.putBytes(index, src, offset, length);
        }

        @Override
        public void putBytes(int index, DirectBuffer src, int srcIndex, int length) {
            bytesCopiedIn += length;
            super.putBytes(index, src, srcIndex, length);
        }
    }

    /** A transport buffer that counts what is copied into the regions it hands out. */
    private static final class CountingTransmit implements TransmitBuffer {
        final byte[] wire = new byte[1 << 20];
        final CountingBuffer claimed = new CountingBuffer();
        long copiedIn;
        int length;

        @Override
        public MutableDirectBuffer claim(int bytes) {
            copiedIn += claimed.bytesCopiedIn;
            claimed.bytesCopiedIn = 0;
            claimed.wrap(wire, length, bytes);
            length += bytes;
            return claimed;
        }

        long bytesCopiedIn() {
            return copiedIn + claimed.bytesCopiedIn;
        }
    }

    private static byte[] payload() {
        byte[] payload = new byte[PAYLOAD_BYTES];
        new SplittableRandom(5).nextBytes(payload);
        return payload;
    }

    /** Feeds one frame from a counting input and sends each delivered message back. */
    private static long echo(WebSocketEngine engine, byte[] frame, CountingBuffer input) {
        input.wrap(frame);
        int consumed = engine.onBytes(input, 0, frame.length, 0);
        assertThat(consumed).isEqualTo(frame.length);
        assertThat(engine.poll()).isEqualTo(WebSocketEngine.Event.MESSAGE);
        engine.sendMessage(engine.messageText(), engine.messageArray(), 0, engine.messageLength());
        return input.bytesCopiedOut;
    }

    private static HttpHead head(byte[] bytes, int length) {
        return HttpHead.parse(bytes, 0, length);
    }

    @Test
    void aServerCopiesAReceivedPayloadOnceAndWritesItsEchoOnce() {
        CountingTransmit transmit = new CountingTransmit();
        WebSocketEngine server = WebSocketEngine.server(WebSocketConfig.defaults(), transmit);
        server.start(0);
        byte[] request = Frames.UPGRADE_REQUEST.getBytes(StandardCharsets.ISO_8859_1);
        assertThat(server.acceptUpgrade(head(request, request.length), 0)).isEqualTo(101);
        assertThat(server.poll()).isEqualTo(WebSocketEngine.Event.OPENED);
        long handshakeBytes = transmit.bytesCopiedIn();
        int echoStart = transmit.length;

        byte[] payload = payload();
        byte[] frame = Frames.clientFrame(true, 0, Opcode.BINARY, payload);
        int headerBytes = frame.length - PAYLOAD_BYTES;
        CountingBuffer input = new CountingBuffer();
        long copiedOut = echo(server, frame, input);

        assertThat(copiedOut).as("header and payload each read once").isEqualTo(frame.length);
        assertThat(Arrays.copyOf(server.messageArray(), server.messageLength())).isEqualTo(payload);
        int echoHeaderBytes = 4;
        assertThat(transmit.bytesCopiedIn() - handshakeBytes)
                .as("the echo's header and payload each written once")
                .isEqualTo(echoHeaderBytes + PAYLOAD_BYTES);
        assertThat(transmit.length - echoStart).isEqualTo(echoHeaderBytes + PAYLOAD_BYTES);
        assertThat(Arrays.copyOfRange(transmit.wire, echoStart + echoHeaderBytes, transmit.length))
                .isEqualTo(payload);
        assertThat(headerBytes).isEqualTo(8);
    }

    @Test
    void aClientMasksInTheTransportBufferInsteadOfCopying() {
        CountingTransmit transmit = new CountingTransmit();
        WebSocketEngine client =
                WebSocketEngine.client(WebSocketConfig.defaults(), transmit, new SplittableRandom(1), "h", "/");
        client.start(0);
        EnginePeer server = EnginePeer.server(WebSocketConfig.defaults());
        server.engine.start(0);
        server.engine.acceptUpgrade(head(transmit.wire, transmit.length), 0);
        byte[] answer = server.takeWire();
        assertThat(client.onBytes(answer, 0, answer.length, 0)).isEqualTo(answer.length);
        assertThat(client.poll()).isEqualTo(WebSocketEngine.Event.OPENED);
        long before = transmit.bytesCopiedIn();
        byte[] payload = payload();
        client.sendBinary(payload, 0, payload.length);
        assertThat(transmit.bytesCopiedIn() - before)
                .as("masked frame: header plus payload, written once")
                .isEqualTo(8 + PAYLOAD_BYTES);
    }

    @Test
    void aCompressedMessageIsReadOnceAndInflatedStraightIntoTheMessage() {
        WebSocketConfig config =
                WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.honourOffers(new CodecPool(6, 2)));
        EnginePair pair = EnginePair.open(config);
        byte[] text = "compress me ".repeat(1000).getBytes(StandardCharsets.UTF_8);
        pair.client.engine.sendText(text, 0, text.length);
        byte[] frame = pair.client.takeWire();
        CountingBuffer input = new CountingBuffer();
        long copiedOut = echo(pair.server.engine, frame, input);
        assertThat(copiedOut).as("the compressed bytes are read once").isEqualTo(frame.length);
        assertThat(Arrays.copyOf(pair.server.engine.messageArray(), pair.server.engine.messageLength()))
                .isEqualTo(text);
    }
}
