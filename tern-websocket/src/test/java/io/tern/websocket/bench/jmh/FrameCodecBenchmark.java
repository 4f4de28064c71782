package io.tern.websocket.bench.jmh;

import io.tern.websocket.engine.WebSocketConfig;
import io.tern.websocket.engine.WebSocketEngine;
import io.tern.websocket.engine.WebSocketSink;
import io.tern.websocket.frame.FrameHeader;
import io.tern.websocket.frame.Masking;
import io.tern.websocket.frame.Opcode;
import io.tern.websocket.utf8.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.Blackhole;

/** Hot-path costs of the engine: decode a masked frame, encode a header, mask, validate UTF-8. Run with -prof gc. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FrameCodecBenchmark {
    @Param({"16", "1024", "16384"})
    public int payloadBytes;

    private WebSocketEngine server;
    private byte[] maskedFrame;
    private byte[] work;
    private byte[] header;
    private byte[] ascii;
    private byte[] multibyte;
    private Blackhole blackhole;

    @Setup
    public void setUp(Blackhole blackhole) {
        this.blackhole = blackhole;
        server = WebSocketEngine.server(WebSocketConfig.defaults(), new WebSocketSink() {
            @Override
            public void transmit(byte[] buf, int offset, int length) {}

            @Override
            public void onMessage(WebSocketEngine engine, boolean text, byte[] buf, int offset, int length) {
                FrameCodecBenchmark.this.blackhole.consume(length);
            }

            @Override
            public void closeTransport() {
                throw new IllegalStateException("benchmark frame rejected");
            }
        });
        byte[] request = ("GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        server.start(0);
        server.onBytes(request, 0, request.length, 0);
        ascii = "a".repeat(payloadBytes).getBytes(StandardCharsets.US_ASCII);
        multibyte = "é".repeat(payloadBytes / 2).getBytes(StandardCharsets.UTF_8);
        header = new byte[FrameHeader.MAX_HEADER_BYTES];
        int headerBytes = FrameHeader.encode(header, 0, true, 0, Opcode.BINARY, payloadBytes, true, 0x12345678);
        maskedFrame = new byte[headerBytes + payloadBytes];
        System.arraycopy(header, 0, maskedFrame, 0, headerBytes);
        Masking.mask(maskedFrame, headerBytes, payloadBytes, 0x12345678, 0);
        work = new byte[maskedFrame.length];
    }

    @Benchmark
    public void decodeMaskedBinaryFrame() {
        // The engine unmasks in place, so decode a fresh copy each time, as a socket read would supply.
        System.arraycopy(maskedFrame, 0, work, 0, maskedFrame.length);
        server.onBytes(work, 0, work.length, 0);
    }

    @Benchmark
    public int encodeHeader() {
        return FrameHeader.encode(header, 0, true, 0, Opcode.BINARY, payloadBytes, true, 0x12345678);
    }

    @Benchmark
    public int mask() {
        return Masking.mask(work, 0, payloadBytes, 0x12345678, 0);
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
