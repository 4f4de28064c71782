package io.tern.netty.websocket.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.websocket.WebSocketEchoServer;
import io.tern.netty.websocket.WebSocketServer;
import io.tern.websocket.deflate.DeflateParameters;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Debian's python3-websockets (10.4) as client of Tern's server and as server for Tern's client. */
@Timeout(120)
class PythonWebsocketsInteropTest {

    @BeforeEach
    void requirePeer() {
        Peers.requirePythonWebsockets();
    }

    private static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(Peers.PYTHON.toString(), Peers.PYTHON_PEER.toString()));
        command.addAll(List.of(args));
        return command;
    }

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void pythonClientAgainstTernServer(boolean compression) throws Exception {
        try (WebSocketServer server = WebSocketEchoServer.start(0);
                PeerProcess client = new PeerProcess(
                        Peers.PYTHON_PEER.getParent(),
                        command(
                                "client",
                                "ws://127.0.0.1:" + server.port() + "/",
                                compression ? "--compression" : ""))) {
            String ok = client.awaitLine("OK", 60_000);
            assertThat(ok).isEqualTo(compression ? "OK permessage-deflate" : "OK none");
            assertThat(client.awaitExit(10_000)).isZero();
        }
    }

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void ternClientAgainstPythonServer(boolean compression) throws Exception {
        try (PeerProcess server =
                new PeerProcess(Peers.PYTHON_PEER.getParent(), command("server", compression ? "--compression" : ""))) {
            int port = Integer.parseInt(
                    server.awaitLine("PORT", 30_000).substring(5).trim());
            DeflateParameters negotiated =
                    TernClientExchange.run(URI.create("ws://127.0.0.1:" + port + "/"), compression, 0);
            assertThat(negotiated != null).isEqualTo(compression);
            TernClientExchange.run(URI.create("ws://127.0.0.1:" + port + "/"), compression, 1000);
        }
    }
}
