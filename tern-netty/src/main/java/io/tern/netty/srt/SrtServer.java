package io.tern.netty.srt;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.tern.netty.NettyTransports;
import io.tern.srt.Delivery;
import io.tern.srt.SrtEndpoint;
import io.tern.srt.SrtEvent;
import io.tern.srt.SrtListener;
import io.tern.srt.SrtSettings;
import io.tern.srt.SrtStats;
import io.tern.srt.StreamAuthorizer;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An SRT listener on one UDP socket (Netty epoll where available): the {@link SrtListener} engine
 * demultiplexes every caller by socket id, so one socket and one event loop thread serve all
 * sessions. Engine state is only touched on that thread.
 */
public final class SrtServer implements AutoCloseable {
    private final Channel channel;
    private final SrtListener engine;
    private final SrtDriver driver;
    private final Set<Long> live = ConcurrentHashMap.newKeySet();

    private SrtServer(Channel channel, SrtListener engine, SrtDriver driver) {
        this.channel = channel;
        this.engine = engine;
        this.driver = driver;
    }

    public static SrtServer start(
            EventLoopGroup group, InetSocketAddress bind, SrtSettings settings, SrtIngestListener listener)
            throws InterruptedException {
        SrtListener engine = new SrtListener(settings, new SecureRandom());
        SrtServer[] self = new SrtServer[1];
        SrtDriver driver = new SrtDriver() {
            @Override
            SrtEndpoint engine() {
                return engine;
            }

            @Override
            void onDatagram(byte[] b, int len, InetSocketAddress from, long nowNs) {
                engine.onDatagram(b, 0, len, from, nowNs);
            }

            @Override
            void onDelivery(Delivery d) {
                listener.onPayload(d.sessionId, d.data, d.length);
            }

            @Override
            void onEvent(SrtEvent e) {
                switch (e) {
                    case SrtEvent.PublishRequested r -> listener.onPublishRequested(new SrtPublishRequest(self[0], r));
                    case SrtEvent.Connected c -> {
                        self[0].live.add(c.sessionId());
                        listener.onConnected(c.sessionId(), c.streamId(), c.peer(), c.latencyMs(), c.keyLength());
                    }
                    case SrtEvent.Rejected r -> listener.onRejected(r.peer(), r.code(), r.streamId());
                    case SrtEvent.Closed c -> {
                        self[0].live.remove(c.sessionId());
                        listener.onClosed(c.sessionId(), c.reason(), c.stats());
                    }
                }
            }
        };
        Bootstrap b = new Bootstrap()
                .group(group)
                .channelFactory(() -> (DatagramChannel) NettyTransports.newDatagramChannel(false))
                .option(io.netty.channel.ChannelOption.SO_RCVBUF, 4 << 20)
                .option(io.netty.channel.ChannelOption.SO_SNDBUF, 4 << 20)
                .handler(driver);
        Channel ch = b.bind(bind).sync().channel();
        self[0] = new SrtServer(ch, engine, driver);
        return self[0];
    }

    /** The one loop the engine, and so every session's callbacks, run on. */
    public EventLoop eventLoop() {
        return channel.eventLoop();
    }

    /** Session {@code sessionId}'s counters now, or null once it is gone; only on {@link #eventLoop()}. */
    public SrtStats statsNow(long sessionId) {
        if (!channel.eventLoop().inEventLoop()) {
            throw new IllegalStateException("SRT stats are read on the listener's event loop");
        }
        return engine.stats(sessionId);
    }

    /**
     * Ends session {@code sessionId} from the server's side (SHUTDOWN to the caller); any thread.
     * Its {@link SrtIngestListener#onClosed} follows, with {@link SrtEvent.CloseReason#LOCAL}.
     */
    public void close(long sessionId) {
        channel.eventLoop().execute(() -> {
            engine.close(sessionId, driver.nowNs());
            driver.drain();
        });
    }

    /** The answer to a publish request, given to the engine on its loop. */
    void answer(long requestId, StreamAuthorizer.Decision decision) {
        if (channel.eventLoop().inEventLoop()) {
            engine.answerPublish(requestId, decision, driver.nowNs());
            driver.drain();
        } else {
            channel.eventLoop().execute(() -> answer(requestId, decision));
        }
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Every live session's counters, taken on the event loop. */
    public CompletableFuture<List<SrtStats>> stats() {
        CompletableFuture<List<SrtStats>> f = new CompletableFuture<>();
        channel.eventLoop().execute(() -> {
            List<SrtStats> all = new ArrayList<>();
            for (long id : live) {
                SrtStats s = engine.stats(id);
                if (s != null) {
                    all.add(s);
                }
            }
            f.complete(all);
        });
        return f;
    }

    /** Engine-wide state counts (sessions, dropped datagrams), taken on the event loop. */
    public CompletableFuture<long[]> engineCounts() {
        CompletableFuture<long[]> f = new CompletableFuture<>();
        channel.eventLoop()
                .execute(() -> f.complete(new long[] {
                    engine.sessionCount(),
                    engine.pendingHandshakes(),
                    engine.inductions(),
                    engine.droppedMalformed() + engine.droppedOversized() + engine.droppedUnknownSocket()
                }));
        return f;
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }
}
