package io.tern.netty.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tern.netty.NettyTransports;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * An {@link HttpService} on sockets: any number of plain listeners (HTTP/1.1 and h2c) and TLS
 * listeners (h2 and HTTP/1.1 by ALPN), on one event-loop group, with one set of limits and
 * counters. {@link #close()} closes the listeners and every connection.
 */
public final class HttpServer implements AutoCloseable {
    private static final AdaptiveRecvByteBufAllocator RECEIVE_SIZES = new AdaptiveRecvByteBufAllocator();
    private final HttpService service;
    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final ChannelGroup channels = new DefaultChannelGroup("tern-http", GlobalEventExecutor.INSTANCE);
    private final List<InetSocketAddress> plain = new ArrayList<>();
    private final List<InetSocketAddress> secure = new ArrayList<>();

    private HttpServer(HttpService service, EventLoopGroup group, boolean ownsGroup) {
        this.service = service;
        this.group = group;
        this.ownsGroup = ownsGroup;
    }

    public static Builder builder(HttpService service) {
        return new Builder(service);
    }

    public HttpService service() {
        return service;
    }

    public HttpCounters counters() {
        return service.counters();
    }

    /** The first plain listener's port. */
    public int port() {
        if (plain.isEmpty()) {
            throw new IllegalStateException("no plain listener");
        }
        return plain.get(0).getPort();
    }

    /** The first TLS listener's port. */
    public int tlsPort() {
        if (secure.isEmpty()) {
            throw new IllegalStateException("no TLS listener");
        }
        return secure.get(0).getPort();
    }

    public List<InetSocketAddress> plainAddresses() {
        return List.copyOf(plain);
    }

    public List<InetSocketAddress> tlsAddresses() {
        return List.copyOf(secure);
    }

    private void bind(InetSocketAddress address, Supplier<SslContext> tls) throws InterruptedException {
        ChannelInitializer<Channel> connection = service.initializer(tls);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NettyTransports.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // One allocator for every connection (each keeps only its handle), not one each.
                .childOption(ChannelOption.RECVBUF_ALLOCATOR, RECEIVE_SIZES)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channels.add(channel);
                        channel.pipeline().addLast(connection);
                    }
                });
        Channel listener = bootstrap.bind(address).sync().channel();
        channels.add(listener);
        InetSocketAddress bound = (InetSocketAddress) listener.localAddress();
        (tls == null ? plain : secure).add(bound);
    }

    @Override
    public void close() {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (ownsGroup) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    public static final class Builder {
        private final HttpService service;
        private final List<InetSocketAddress> plain = new ArrayList<>();
        private final List<InetSocketAddress> secure = new ArrayList<>();
        private final List<Supplier<SslContext>> contexts = new ArrayList<>();
        private EventLoopGroup group;
        private int threads = 1;

        private Builder(HttpService service) {
            this.service = Objects.requireNonNull(service, "service");
        }

        /** HTTP/1.1 and h2c on {@code address} (port 0 picks a free one). */
        public Builder listen(InetSocketAddress address) {
            plain.add(Objects.requireNonNull(address, "address"));
            return this;
        }

        /**
         * TLS on {@code address}: h2 and http/1.1 by ALPN. {@code context} is read for each new
         * connection; build it with {@link HttpTls#load}.
         */
        public Builder listenTls(InetSocketAddress address, Supplier<SslContext> context) {
            secure.add(Objects.requireNonNull(address, "address"));
            contexts.add(Objects.requireNonNull(context, "context"));
            return this;
        }

        /** Runs on {@code shared} (not shut down by {@link #close()}) instead of an own group. */
        public Builder eventLoops(EventLoopGroup shared) {
            this.group = shared;
            return this;
        }

        /** Threads of the server's own group (default 1). */
        public Builder threads(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + count);
            }
            this.threads = count;
            return this;
        }

        public HttpServer start() throws InterruptedException {
            if (plain.isEmpty() && secure.isEmpty()) {
                throw new IllegalStateException("an HTTP server needs at least one listener");
            }
            boolean owns = group == null;
            HttpServer server =
                    new HttpServer(service, owns ? NettyTransports.newGroup(threads, "tern-http") : group, owns);
            try {
                for (InetSocketAddress address : plain) {
                    server.bind(address, null);
                }
                for (int i = 0; i < secure.size(); i++) {
                    server.bind(secure.get(i), contexts.get(i));
                }
            } catch (Exception e) { // a BindException arrives undeclared from sync()
                server.close();
                throw e;
            }
            return server;
        }
    }
}
