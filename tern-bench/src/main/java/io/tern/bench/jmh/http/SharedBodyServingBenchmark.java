package io.tern.bench.jmh.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Headers;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpService;
import io.tern.netty.http.SharedBody;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One request for a {@link SharedBody} (a part, immutable) through the server's whole pipeline on
 * an {@link EmbeddedChannel}: HTTP/1.1 keep-alive, or h2c by prior knowledge (one stream per
 * request on one connection). The outbound buffers are released unread, as a socket would after
 * writing them.
 *
 * <p>With {@code -prof gc}, B/op is what one request costs the server in garbage: the same for a
 * 1 KiB, 64 KiB and 1 MiB body, because the body is a retained view of the shared bytes, never a
 * copy. Per request the HTTP/2 variant also writes one prepared HEADERS frame and one
 * WINDOW_UPDATE into the server (the client's side, no allocation).
 *
 * <p>{@code chunks} > 1 makes the body as the origin makes a part's or segment's: a composite of
 * retained views of that many pooled direct chunks (the packager's chunks, kept once), so B/op
 * shows what serving such a body costs beyond a single buffer.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
// Netty's leak detector samples buffers with a stack trace each: not part of serving.
@Fork(
        value = 1,
        jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled"})
public class SharedBodyServingBenchmark {
    @Param({"1024", "65536", "1048576"})
    int bodyBytes;

    @Param({"http1", "h2c"})
    String protocol;

    /** 1: one buffer; more: a composite of views of this many chunks (a 200 ms part has ~6). */
    @Param({"1"})
    int chunks;

    private ByteBuf[] chunkBuffers = new ByteBuf[0];

    private SharedBody body;
    private EmbeddedChannel channel;
    private ByteBuf request;
    /**
     * From 3: on a channel without a server parent (an EmbeddedChannel) Http2MultiplexHandler takes
     * itself for a client and stream 1 for an h2c upgrade.
     */
    private int streamId = 3;

    private long served;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        body = chunks == 1 ? SharedBody.of(new byte[bodyBytes], "video/mp4") : viewsOfChunks();
        HttpRoutes routes = HttpRoutes.builder()
                .get("/live/cam1/part.m4s", "part", ex -> ex.respond(body, CacheControl.immutable()))
                .build();
        HttpService service = new HttpService(routes, HttpLimits.DEFAULTS);
        channel = new EmbeddedChannel();
        channel.pipeline().addLast(service.initializer(null));
        if (protocol.equals("http1")) {
            request = direct("GET /live/cam1/part.m4s HTTP/1.1\r\nHost: bench\r\nAccept: */*\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        } else {
            channel.writeInbound(clientPreface());
            drain();
            request = headersAndWindowUpdate(bodyBytes);
        }
        serve(); // the first answer, so a broken pipeline fails here and not silently
        if (served < bodyBytes) {
            throw new IllegalStateException("the pipeline did not answer with the body: " + served + " bytes");
        }
    }

    @Benchmark
    public long serve() {
        if (protocol.equals("h2c")) {
            request.setInt(5, streamId); // the HEADERS frame's stream id; HPACK does not depend on it
            streamId += 2;
        }
        channel.writeInbound(request.retainedDuplicate());
        return drain();
    }

    private long drain() {
        long bytes = 0;
        ByteBuf out;
        while ((out = channel.readOutbound()) != null) {
            bytes += out.readableBytes();
            out.release();
        }
        served = bytes;
        return bytes;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        request.release();
        body.release();
        for (ByteBuf chunk : chunkBuffers) {
            chunk.release();
        }
    }

    private SharedBody viewsOfChunks() {
        chunkBuffers = new ByteBuf[chunks];
        CompositeByteBuf composite = Unpooled.compositeBuffer(chunks);
        for (int i = 0; i < chunks; i++) {
            int length = bodyBytes / chunks + (i < bodyBytes % chunks ? 1 : 0);
            chunkBuffers[i] = ByteBufAllocator.DEFAULT.directBuffer(length).writeZero(length);
            composite.addComponent(true, chunkBuffers[i].retainedDuplicate());
        }
        return SharedBody.wrap(composite, "video/mp4", -1);
    }

    private static ByteBuf direct(byte[] bytes) {
        return Unpooled.directBuffer(bytes.length).writeBytes(bytes);
    }

    /** The preface, SETTINGS with the largest stream window, and an ACK of the server's SETTINGS. */
    private static ByteBuf clientPreface() {
        ByteBuf out = Unpooled.buffer();
        out.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
        out.writeMedium(6).writeByte(0x4).writeByte(0).writeInt(0); // SETTINGS, one setting
        out.writeShort(0x4).writeInt(Integer.MAX_VALUE); // SETTINGS_INITIAL_WINDOW_SIZE
        out.writeMedium(0).writeByte(0x4).writeByte(0x1).writeInt(0); // SETTINGS ACK
        return out;
    }

    /**
     * A HEADERS frame for GET /live/cam1/part.m4s (END_STREAM, END_HEADERS) and a connection
     * WINDOW_UPDATE giving back what its answer will use. The header block is self-contained
     * (static-table and literal representations), so the same bytes are valid for every stream.
     */
    private static ByteBuf headersAndWindowUpdate(int bodyBytes) throws Exception {
        Http2Headers headers = new DefaultHttp2Headers()
                .method("GET")
                .scheme("http")
                .authority("bench")
                .path("/live/cam1/part.m4s");
        ByteBuf block = ByteBufAllocator.DEFAULT.heapBuffer();
        // Never-indexed literals add no dynamic-table entries, so the block can be sent again and again.
        new DefaultHttp2HeadersEncoder((name, value) -> true).encodeHeaders(3, headers, block);
        ByteBuf out = Unpooled.directBuffer();
        out.writeMedium(block.readableBytes()).writeByte(0x1).writeByte(0x5).writeInt(3); // HEADERS
        out.writeBytes(block);
        block.release();
        out.writeMedium(4).writeByte(0x8).writeByte(0).writeInt(0).writeInt(bodyBytes + 1024); // WINDOW_UPDATE
        return out;
    }
}
