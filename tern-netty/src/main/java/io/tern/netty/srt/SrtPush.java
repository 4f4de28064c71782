package io.tern.netty.srt;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.tern.netty.NettyTransports;
import io.tern.srt.Delivery;
import io.tern.srt.SrtCaller;
import io.tern.srt.SrtEndpoint;
import io.tern.srt.SrtEvent;
import io.tern.srt.SrtSettings;
import io.tern.srt.SrtStats;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;

/**
 * The outbound side: an {@link SrtCaller} on its own UDP socket that connects to a remote SRT
 * listener and pushes payloads (a restream, or a load generator). {@link #send} may be called
 * from any thread; the engine runs on the channel's event loop.
 */
public final class SrtPush implements AutoCloseable {
    private final Channel channel;
    private final SrtCaller engine;
    private final SrtDriver driver;
    private final CompletableFuture<SrtEvent> outcome = new CompletableFuture<>();
    private final CompletableFuture<SrtEvent.Closed> closed = new CompletableFuture<>();

    private SrtPush(Channel channel, SrtCaller engine, SrtDriver driver) {
        this.channel = channel;
        this.engine = engine;
        this.driver = driver;
    }

    public static SrtPush connect(
            EventLoopGroup group, InetSocketAddress remote, SrtSettings settings, SrtCaller.Options options)
            throws InterruptedException {
        SrtCaller engine = new SrtCaller(settings, options, new SecureRandom());
        SrtPush[] self = new SrtPush[1];
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
            void onDelivery(Delivery d) {}

            @Override
            void onEvent(SrtEvent e) {
                if (e instanceof SrtEvent.Closed c) {
                    self[0].closed.complete(c);
                } else {
                    self[0].outcome.complete(e);
                }
            }
        };
        Bootstrap b = new Bootstrap()
                .group(group)
                .channelFactory(() -> (DatagramChannel) NettyTransports.newDatagramChannel(false))
                .handler(driver);
        Channel ch = b.bind(
                        new InetSocketAddress(remote.getAddress().isLoopbackAddress() ? remote.getAddress() : null, 0))
                .sync()
                .channel();
        self[0] = new SrtPush(ch, engine, driver);
        ch.eventLoop().execute(() -> {
            engine.connect(remote, driver.nowNs());
            driver.drain();
        });
        return self[0];
    }

    /** Completes with {@link SrtEvent.Connected} or {@link SrtEvent.Rejected}. */
    public CompletableFuture<SrtEvent> outcome() {
        return outcome;
    }

    public CompletableFuture<SrtEvent.Closed> closed() {
        return closed;
    }

    /** Queues one payload (at most 1456 bytes; a copy is taken). */
    public void send(byte[] payload, int off, int len) {
        byte[] copy = java.util.Arrays.copyOfRange(payload, off, off + len);
        channel.eventLoop().execute(() -> {
            engine.send(copy, 0, copy.length, driver.nowNs());
            driver.drain();
        });
    }

    public CompletableFuture<SrtStats> stats() {
        CompletableFuture<SrtStats> f = new CompletableFuture<>();
        channel.eventLoop().execute(() -> f.complete(engine.stats()));
        return f;
    }

    /** Sends SHUTDOWN and closes the socket. */
    @Override
    public void close() {
        channel.eventLoop()
                .submit(() -> {
                    engine.close(engine.sessionId(), driver.nowNs());
                    driver.drain();
                })
                .syncUninterruptibly();
        channel.close().syncUninterruptibly();
    }
}
