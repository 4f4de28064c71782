package io.tern.bench.jmh.websocket;

import io.tern.websocket.deflate.CodecPool;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import io.tern.websocket.engine.TransmitBuffer;
import io.tern.websocket.engine.WebSocketConfig;
import io.tern.websocket.engine.WebSocketEngine;
import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.Masking;
import io.tern.websocket.frame.Opcode;
import io.tern.websocket.handshake.HttpHead;
import io.tern.websocket.utf8.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Hot-path costs of the engine, run with {@code -prof gc} for bytes allocated per operation:
 * decode a masked frame, echo it (decode, deliver, frame the answer into the transport's buffer),
 * echo a compressed text message, encode a header, mask, validate UTF-8.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class FrameCodecBenchmark {
    private static final String REQUEST = "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n";
    private static final int MASK_KEY = 0x12345678;

    @Param({"16", "1024", "16384"})
    public int payloadBytes;

    /** Stands in for the adapter's socket buffer: a fixed array, rewound before every operation. */
    private static final class RewoundTransmit implements TransmitBuffer {
        private final byte[] wire = new byte[1 << 20];
        private final UnsafeBuffer claimed = new UnsafeBuffer(0, 0);
        private int length;

        @Override
        public MutableDirectBuffer claim(int bytes) {
            claimed.wrap(wire, length, bytes);
            length += bytes;
            return claimed;
        }

        void rewind() {
            length = 0;
        }
    }

    private final RewoundTransmit transmit = new RewoundTransmit();
    private final RewoundTransmit compressedTransmit = new RewoundTransmit();
    private WebSocketEngine server;
    private WebSocketEngine compressingServer;
    private final UnsafeBuffer maskedFrame = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer compressedFrame = new UnsafeBuffer(0, 0);
    private byte[] work;
    private byte[] header;
    private byte[] ascii;
    private byte[] multibyte;

    private static WebSocketEngine open(WebSocketConfig config, TransmitBuffer transmit) {
        WebSocketEngine engine = WebSocketEngine.server(config, transmit);
        byte[] request = REQUEST.getBytes(StandardCharsets.ISO_8859_1);
        engine.start(0);
        if (engine.acceptUpgrade(HttpHead.parse(request, 0, request.length), 0) != 101
                || engine.poll() != WebSocketEngine.Event.OPENED) {
            throw new IllegalStateException("handshake failed");
        }
        return engine;
    }

    private static byte[] maskedFrame(int rsv, int opcode, byte[] payload) {
        byte[] head = new byte[FrameHeader.MAX_HEADER_BYTES];
        int headerBytes = FrameHeader.encode(head, 0, true, rsv, opcode, payload.length, true, MASK_KEY);
        byte[] frame = Arrays.copyOf(head, headerBytes + payload.length);
        System.arraycopy(payload, 0, frame, headerBytes, payload.length);
        Masking.mask(frame, headerBytes, payload.length, MASK_KEY, 0);
        return frame;
    }

    /** A permessage-deflate payload as a client with context takeover would send it (§7.2.1). */
    private static byte[] deflated(byte[] message) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        deflater.setInput(message);
        byte[] out = new byte[message.length + 64];
        int produced = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        deflater.end();
        return Arrays.copyOf(out, produced - 4);
    }

    @Setup
    public void setUp() {
        server = open(WebSocketConfig.defaults(), transmit);
        // Without context takeover every message inflates the same way, so one frame can be replayed.
        compressingServer = open(
                WebSocketConfig.defaults().withDeflate(PerMessageDeflateConfig.noContextTakeover(new CodecPool(6, 2))),
                compressedTransmit);
        ascii = "a".repeat(payloadBytes).getBytes(StandardCharsets.US_ASCII);
        multibyte = "é".repeat(payloadBytes / 2).getBytes(StandardCharsets.UTF_8);
        header = new byte[FrameHeader.MAX_HEADER_BYTES];
        maskedFrame.wrap(maskedFrame(0, Opcode.BINARY, new byte[payloadBytes]));
        byte[] json = "{\"kind\":1,\"content\":\"hello\"}"
                .repeat(payloadBytes / 28 + 1)
                .getBytes(StandardCharsets.UTF_8);
        compressedFrame.wrap(maskedFrame(FrameHeader.RSV1, Opcode.TEXT, deflated(Arrays.copyOf(json, payloadBytes))));
        work = new byte[payloadBytes];
    }

    @Benchmark
    public int decodeMaskedBinaryFrame() {
        server.onBytes(maskedFrame, 0, maskedFrame.capacity(), 0);
        server.poll();
        return server.messageLength();
    }

    @Benchmark
    public int echoMaskedBinaryFrame() {
        transmit.rewind();
        server.onBytes(maskedFrame, 0, maskedFrame.capacity(), 0);
        server.poll();
        server.sendMessage(false, server.messageArray(), 0, server.messageLength());
        return transmit.length;
    }

    @Benchmark
    public int echoCompressedTextFrame() {
        compressedTransmit.rewind();
        compressingServer.onBytes(compressedFrame, 0, compressedFrame.capacity(), 0);
        compressingServer.poll();
        compressingServer.sendMessage(true, compressingServer.messageArray(), 0, compressingServer.messageLength());
        return compressedTransmit.length;
    }

    @Benchmark
    public int encodeHeader() {
        return FrameHeader.encode(header, 0, true, 0, Opcode.BINARY, payloadBytes, true, MASK_KEY);
    }

    @Benchmark
    public int mask() {
        return Masking.mask(work, 0, payloadBytes, MASK_KEY, 0);
    }

    @Benchmark
    public boolean validateAsciiUtf8() {
        return Utf8Validator.isValid(ascii, 0, ascii.length);
    }

    @Benchmark
    public boolean validateTwoByteUtf8() {
        return Utf8Validator.isValid(multibyte, 0, multibyte.length);
    }
}
