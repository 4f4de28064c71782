package io.tern.bench.origin.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.tern.bench.origin.playlist.Playlist;
import io.tern.bench.origin.viewer.Exchange;
import io.tern.bench.origin.viewer.Failure;

/**
 * One of a viewer's keep-alive HTTP/1.1 connections, opened when its first request is ready
 * and again after the server closes it. Netty's {@code HttpResponseDecoder} frames the answers;
 * media bodies are only counted (their buffers are released at once), playlist bodies are
 * gathered into one pooled buffer per connection, bounded, and handed to the loop's
 * {@link PlaylistCache}.
 */
@ChannelHandler.Sharable // one channel at a time: a replacement is opened only after the old one closed
final class HttpConnection extends ChannelInboundHandlerAdapter {
    private final ViewerSession session;
    private final int index;
    private Channel channel;
    private boolean connecting;
    private Exchange inFlight;
    private int status;
    private boolean keepAlive;
    private boolean failed;
    private boolean timedOut;
    private long bodyBytes;
    private ByteBuf playlistBody;
    private long connects;

    HttpConnection(ViewerSession session, int index) {
        this.session = session;
        this.index = index;
    }

    /** Sends {@code ex} now, or once connected. */
    void send(Exchange ex, long nowNs) {
        if (inFlight != null) {
            return;
        }
        inFlight = ex;
        if (channel != null && channel.isActive()) {
            write(nowNs);
        } else if (!connecting) {
            connect();
        }
    }

    private void connect() {
        connecting = true;
        connects++;
        ChannelFuture f = session.loop().connect(this);
        channel = f.channel();
        f.addListener(done -> {
            connecting = false;
            if (!done.isSuccess() && f.channel() == channel) {
                channel = null;
                connectFailed();
            }
        });
    }

    private void connectFailed() {
        Exchange ex = inFlight;
        inFlight = null;
        if (ex != null) {
            long now = System.nanoTime();
            session.viewer().onFailure(ex, Failure.CONNECTION, now);
            session.flush(now);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (ctx.channel() != channel) {
            ctx.close();
            return;
        }
        if (inFlight != null) {
            write(System.nanoTime());
        }
        ctx.fireChannelActive();
    }

    private void write(long nowNs) {
        Exchange ex = inFlight;
        RequestWriter writer = session.loop().requestWriter();
        ByteBuf out = channel.alloc().directBuffer(writer.sizeHint(ex));
        writer.write(ex, out);
        status = 0;
        bodyBytes = 0;
        failed = false;
        if (playlistBody != null) {
            playlistBody.clear();
        }
        ex.sent(nowNs);
        channel.writeAndFlush(out, channel.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (ctx.channel() != channel || inFlight == null || failed) {
                return; // nothing asked, or already failed: drop
            }
            if (msg instanceof HttpResponse r) {
                if (r.decoderResult().isFailure()) {
                    fail(ctx.channel().isActive() ? Failure.MALFORMED : Failure.CONNECTION);
                    return;
                }
                status = r.status().code();
                keepAlive = HttpUtil.isKeepAlive(r);
            }
            if (msg instanceof HttpContent c) {
                if (c.decoderResult().isFailure()) {
                    fail(ctx.channel().isActive() ? Failure.MALFORMED : Failure.CONNECTION);
                    return;
                }
                ByteBuf content = c.content();
                int n = content.readableBytes();
                bodyBytes += n;
                if (inFlight.kind().playlist() && status == 200 && n > 0) {
                    if (!gather(content)) {
                        fail(Failure.MALFORMED);
                        return;
                    }
                }
                if (c instanceof LastHttpContent) {
                    complete(System.nanoTime());
                }
            }
        } finally {
            io.netty.util.ReferenceCountUtil.release(msg);
        }
    }

    private boolean gather(ByteBuf content) {
        int max = session.loop().maxPlaylistBytes();
        if (playlistBody == null) {
            playlistBody = channel.alloc().directBuffer(Math.min(max, 16 * 1024), max);
        }
        if (playlistBody.readableBytes() + content.readableBytes() > max) {
            return false;
        }
        playlistBody.writeBytes(content, content.readerIndex(), content.readableBytes());
        return true;
    }

    private void complete(long nowNs) {
        Exchange ex = inFlight;
        inFlight = null;
        ViewerLoop loop = session.loop();
        if (status == 200 && ex.kind().playlist()) {
            Playlist parsed;
            try {
                parsed = loop.playlists().playlist(ex.path(), playlistBody == null ? EMPTY : playlistBody, nowNs);
            } catch (IllegalArgumentException e) {
                loop.malformed(e);
                session.viewer().onFailure(ex, Failure.MALFORMED, nowNs);
                parsed = null;
            }
            if (parsed != null) {
                session.viewer().onPlaylist(ex, parsed, bodyBytes, nowNs);
            }
        } else if (status == 200) {
            session.viewer().onMedia(ex, bodyBytes, nowNs);
        } else {
            session.viewer().onStatus(ex, status, nowNs);
        }
        if (!keepAlive) {
            closeQuietly();
        }
        session.flush(nowNs);
    }

    private static final ByteBuf EMPTY = io.netty.buffer.Unpooled.EMPTY_BUFFER;

    private void fail(Failure cause) {
        failed = true;
        Exchange ex = inFlight;
        inFlight = null;
        closeQuietly();
        long now = System.nanoTime();
        session.viewer().onFailure(ex, cause, now);
        session.flush(now);
    }

    /** Closes the connection if its request has been in flight longer than {@code timeoutNs}. */
    void checkTimeout(long nowNs, long timeoutNs) {
        if (inFlight != null
                && inFlight.state() == Exchange.State.IN_FLIGHT
                && nowNs - inFlight.sentNs() > timeoutNs
                && channel != null) {
            timedOut = true;
            channel.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel() != channel) {
            return; // a connection already replaced or closed on purpose
        }
        channel = null;
        releaseBody();
        Exchange ex = inFlight;
        inFlight = null;
        Failure cause = timedOut ? Failure.TIMEOUT : Failure.CONNECTION;
        timedOut = false;
        if (ex != null) {
            long now = System.nanoTime();
            session.viewer().onFailure(ex, cause, now);
            session.flush(now);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    /** Closes the current channel without reporting it: its inactive event no longer matches. */
    void closeQuietly() {
        Channel c = channel;
        channel = null;
        releaseBody();
        if (c != null) {
            c.close();
        }
    }

    /** The run is over: forget the request and close. */
    void close() {
        inFlight = null;
        closeQuietly();
    }

    private void releaseBody() {
        if (playlistBody != null) {
            playlistBody.release();
            playlistBody = null;
        }
    }

    int index() {
        return index;
    }

    long connects() {
        return connects;
    }
}
