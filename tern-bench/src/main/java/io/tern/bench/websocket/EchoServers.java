package io.tern.bench.websocket;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.tern.netty.NettyTransports;
import io.tern.netty.websocket.WebSocketEndpoint;
import io.tern.netty.websocket.WebSocketServer;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The three echo servers the benchmark compares, each started in its own JVM so its CPU time can be
 * read from /proc: {@code EchoServers tern|netty|jetty} prints "PORT n" and runs until stdin closes.
 * Each gets one I/O thread where the framework allows choosing, on 127.0.0.1, without compression.
 */
public final class EchoServers {
    private static final int MAX_MESSAGE_BYTES = 1 << 20;

    private EchoServers() {}

    public static void main(String[] args) throws Exception {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        AutoCloseable server = switch (args[0]) {
            case "tern" -> tern(address);
            case "netty" -> netty(address);
            case "jetty" -> jetty(address);
            default -> throw new IllegalArgumentException(args[0]);
        };
        try (server) {
            System.in.read();
        }
    }

    private static AutoCloseable tern(InetSocketAddress address) throws InterruptedException {
        WebSocketServer server = WebSocketServer.start(
                address,
                1,
                new WebSocketEndpoint(
                        WebSocketConfig.defaults().withLimits(MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES),
                        request ->
                                (connection, text, buf, offset, length) -> connection.send(text, buf, offset, length)));
        System.out.println("PORT " + server.port());
        return server;
    }

    private static AutoCloseable netty(InetSocketAddress address) throws InterruptedException {
        EventLoopGroup boss = NettyTransports.newGroup(1, "bench-netty");
        EventLoopGroup workers = NettyTransports.newGroup(1, "bench-netty");
        Channel channel = new ServerBootstrap()
                .group(boss, workers)
                .channel(NettyTransports.serverSocketChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        new HttpServerCodec(),
                                        new HttpObjectAggregator(65536),
                                        new WebSocketServerProtocolHandler("/", null, false, MAX_MESSAGE_BYTES),
                                        new NettyEcho());
                    }
                })
                .bind(address)
                .sync()
                .channel();
        System.out.println("PORT " + ((InetSocketAddress) channel.localAddress()).getPort());
        return () -> {
            channel.close().sync();
            boss.shutdownGracefully().sync();
            workers.shutdownGracefully().sync();
        };
    }

    /** Writes each data frame back (ownership passes to the write) and flushes once per read batch. */
    private static final class NettyEcho extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
                ctx.write(msg, ctx.voidPromise());
            } else {
                ctx.fireChannelRead(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    private static AutoCloseable jetty(InetSocketAddress address) throws Exception {
        Server server = new Server(new QueuedThreadPool(16, 4));
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost(address.getHostString());
        connector.setPort(0);
        server.addConnector(connector);
        WebSocketUpgradeHandler upgrade = WebSocketUpgradeHandler.from(server, container -> {
            container.setMaxTextMessageSize(MAX_MESSAGE_BYTES);
            container.setMaxBinaryMessageSize(MAX_MESSAGE_BYTES);
            container.addMapping("/", (request, response, callback) -> new JettyEcho());
        });
        server.setHandler(upgrade);
        server.start();
        System.out.println("PORT " + connector.getLocalPort());
        return server::stop;
    }

    public static final class JettyEcho implements Session.Listener.AutoDemanding {
        private Session session;

        @Override
        public void onWebSocketOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onWebSocketText(String message) {
            session.sendText(message, Callback.NOOP);
        }

        @Override
        public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
            session.sendBinary(payload, callback);
        }
    }
}
