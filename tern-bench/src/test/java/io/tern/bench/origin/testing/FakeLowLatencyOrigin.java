package io.tern.bench.origin.testing;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small fake LL-HLS origin on 127.0.0.1 for the generator's adapter tests: a synthetic stream
 * whose part {@code g} (100 ms each, four to a 400 ms segment) completes at {@code start +
 * (g + 1) x 100 ms}. It holds blocking reloads until their part exists, streams the hinted part
 * with chunked encoding until it completes, serves finished parts and segments with a length,
 * and closes the connection after every {@code closeEvery}-th answer.
 */
public final class FakeLowLatencyOrigin implements AutoCloseable {
    public static final long PART_NS = 100_000_000L;
    public static final int PARTS_PER_SEGMENT = 4;
    static final int WINDOW_SEGMENTS = 10;

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    private final long startNs = System.nanoTime();
    private final int closeEvery;
    private final AtomicLong answers = new AtomicLong();
    private final AtomicLong heldReloads = new AtomicLong();
    private final AtomicLong streamedParts = new AtomicLong();

    public FakeLowLatencyOrigin(int closeEvery) throws InterruptedException {
        this.closeEvery = closeEvery;
        server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(4096), new Handler());
                    }
                })
                .bind("127.0.0.1", 0)
                .sync()
                .channel();
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    public long heldReloads() {
        return heldReloads.get();
    }

    public long streamedParts() {
        return streamedParts.get();
    }

    /** Parts complete now. */
    long completeParts() {
        return (System.nanoTime() - startNs) / PART_NS;
    }

    long completeAtNs(long part) {
        return startNs + (part + 1) * PART_NS;
    }

    String playlist() {
        long parts = completeParts();
        long segments = parts / PARTS_PER_SEGMENT;
        long first = Math.max(0, segments - WINDOW_SEGMENTS);
        StringBuilder sb = new StringBuilder("#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:1\n"
                + "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=0.3\n"
                + "#EXT-X-PART-INF:PART-TARGET=0.1\n#EXT-X-MEDIA-SEQUENCE:" + first
                + "\n#EXT-X-MAP:URI=\"init.mp4\"\n");
        for (long m = first; m < segments; m++) {
            if (m >= segments - 2) {
                parts(sb, m, PARTS_PER_SEGMENT);
            }
            sb.append("#EXTINF:0.4,\ns").append(m).append(".m4s\n");
        }
        int open = (int) (parts - segments * PARTS_PER_SEGMENT);
        parts(sb, segments, open);
        sb.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p").append(parts).append(".m4s\"\n");
        return sb.toString();
    }

    private static void parts(StringBuilder sb, long msn, int count) {
        for (int i = 0; i < count; i++) {
            sb.append("#EXT-X-PART:DURATION=0.1,URI=\"p")
                    .append(msn * PARTS_PER_SEGMENT + i)
                    .append(".m4s\"")
                    .append(i == 0 ? ",INDEPENDENT=YES" : "")
                    .append('\n');
        }
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            QueryStringDecoder q = new QueryStringDecoder(req.uri());
            String path = q.path();
            String name = path.substring(path.lastIndexOf('/') + 1);
            if (name.equals("index.m3u8")) {
                send(ctx, "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nvideo.m3u8\n");
            } else if (name.equals("video.m3u8")) {
                if (q.parameters().containsKey("_HLS_msn")) {
                    long msn = Long.parseLong(q.parameters().get("_HLS_msn").get(0));
                    long part = Long.parseLong(q.parameters().get("_HLS_part").get(0));
                    long target = msn * PARTS_PER_SEGMENT + part;
                    long waitNs = completeAtNs(target) - System.nanoTime();
                    if (waitNs > 0) {
                        heldReloads.incrementAndGet();
                        ctx.executor().schedule(() -> send(ctx, playlist()), waitNs, TimeUnit.NANOSECONDS);
                        return;
                    }
                }
                send(ctx, playlist());
            } else if (name.equals("init.mp4")) {
                send(ctx, new byte[500], "video/mp4");
            } else if (name.startsWith("s")) {
                send(ctx, new byte[8000], "video/mp4");
            } else if (name.startsWith("p")) {
                long g = Long.parseLong(name.substring(1, name.indexOf('.')));
                long waitNs = completeAtNs(g) - System.nanoTime();
                if (waitNs <= 0) {
                    send(ctx, new byte[2000], "video/mp4");
                } else {
                    // The hinted part: its first half now, the rest when it completes.
                    streamedParts.incrementAndGet();
                    HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                    HttpUtil.setTransferEncodingChunked(head, true);
                    ctx.write(head);
                    ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[1000])));
                    ctx.executor()
                            .schedule(
                                    () -> {
                                        ctx.writeAndFlush(
                                                new DefaultLastHttpContent(Unpooled.wrappedBuffer(new byte[1000])));
                                        answered(ctx);
                                    },
                                    waitNs,
                                    TimeUnit.NANOSECONDS);
                }
            } else {
                FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND);
                HttpUtil.setContentLength(r, 0);
                ctx.writeAndFlush(r);
            }
        }

        private void send(ChannelHandlerContext ctx, String playlist) {
            send(ctx, playlist.getBytes(StandardCharsets.US_ASCII), "application/vnd.apple.mpegurl");
        }

        private void send(ChannelHandlerContext ctx, byte[] body, String type) {
            FullHttpResponse r = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(body));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
            HttpUtil.setContentLength(r, body.length);
            boolean close = answers.incrementAndGet() % closeEvery == 0;
            if (close) {
                r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(r).addListener(f -> ctx.close());
            } else {
                ctx.writeAndFlush(r);
            }
        }

        private void answered(ChannelHandlerContext ctx) {
            answers.incrementAndGet();
        }
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
