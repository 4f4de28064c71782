package io.tern.server.cli;

import io.tern.netty.websocket.WebSocketEchoServer;
import io.tern.netty.websocket.WebSocketServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tern ws-echo}: the WebSocket engine as a conformance echo server (Autobahn's fuzzingclient target). */
@Command(
        name = "ws-echo",
        mixinStandardHelpOptions = true,
        description = "Run a WebSocket echo server (RFC 6455 + permessage-deflate) for conformance testing.")
public final class WsEchoCommand implements Callable<Integer> {
    @Option(names = "--port", description = "TCP port. Default: ${DEFAULT-VALUE}.")
    private int port = WebSocketEchoServer.DEFAULT_PORT;

    @Option(names = "--host", description = "Address to listen on. Default: ${DEFAULT-VALUE}.")
    private String host = "127.0.0.1";

    @Override
    public Integer call() throws Exception {
        WebSocketServer server = WebSocketEchoServer.start(
                new InetSocketAddress(InetAddress.getByName(host), port), WebSocketEchoServer.echoConfig());
        System.out.println("Tern WebSocket echo server on ws://" + host + ":" + server.port() + "/");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "tern-ws-echo-shutdown"));
        stopped.await();
        return 0;
    }
}
