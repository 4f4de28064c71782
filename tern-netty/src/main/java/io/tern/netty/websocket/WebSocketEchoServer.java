package io.tern.netty.websocket;

import io.tern.websocket.deflate.CodecPool;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import io.tern.websocket.engine.BackpressureConfig;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;

/**
 * Conformance echo server: every text or binary message comes back unchanged, on any path. Limits
 * are large enough for Autobahn's 16 MiB messages (cases 9.x); permessage-deflate is accepted as
 * offered.
 */
public final class WebSocketEchoServer {
    public static final int DEFAULT_PORT = 9001;
    private static final int MAX_MESSAGE_BYTES = 32 << 20;

    private WebSocketEchoServer() {}

    public static WebSocketConfig echoConfig() {
        return WebSocketConfig.defaults()
                .withLimits(MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES)
                .withDeflate(PerMessageDeflateConfig.honourOffers(new CodecPool(6, 64)))
                // One echoed message of the largest size must fit, plus what the peer pipelines behind it.
                .withBackpressure(BackpressureConfig.defaults().withMaxQueuedBytes(4L * MAX_MESSAGE_BYTES));
    }

    /** An endpoint that echoes on every path. */
    public static WebSocketEndpoint endpoint(WebSocketConfig config) {
        return new WebSocketEndpoint(config, request -> new EchoListener());
    }

    /** Starts on 127.0.0.1; port 0 picks a free one. */
    public static WebSocketServer start(int port) throws InterruptedException {
        return start(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), echoConfig());
    }

    public static WebSocketServer start(InetSocketAddress address, WebSocketConfig config) throws InterruptedException {
        return WebSocketServer.start(address, 0, endpoint(config));
    }

    /**
     * {@code --port N [--host H]}, or a bare port as the Autobahn Maven plugin passes it. With a bare
     * port the server binds the address the plugin connects to ({@link InetAddress#getLocalHost()}).
     * Runs until interrupted (the plugin interrupts its thread) or the JVM exits.
     */
    public static void main(String[] args) throws Exception {
        int port = DEFAULT_PORT;
        String host = InetAddress.getLoopbackAddress().getHostAddress();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--host" -> host = args[++i];
                default -> {
                    port = Integer.parseInt(args[i]);
                    host = InetAddress.getLocalHost().getHostAddress();
                }
            }
        }
        try (WebSocketServer server = start(new InetSocketAddress(host, port), echoConfig())) {
            System.out.println("tern ws-echo listening on " + server.localAddress());
            new CountDownLatch(1).await();
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class EchoListener implements WebSocketListener {
        @Override
        public void onMessage(WebSocketConnection connection, boolean text, byte[] buf, int offset, int length) {
            connection.send(text, buf, offset, length);
        }
    }
}
