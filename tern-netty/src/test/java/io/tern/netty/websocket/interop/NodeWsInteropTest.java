package io.tern.netty.websocket.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.websocket.WebSocketEchoServer;
import io.tern.netty.websocket.WebSocketServer;
import io.tern.websocket.deflate.DeflateParameters;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Node's ws package as client of Tern's server and as server for Tern's client. */
@Timeout(120)
class NodeWsInteropTest {

    @BeforeEach
    void requirePeer() {
        Peers.requireNodeWs();
    }

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void nodeClientAgainstTernServer(boolean compression) throws Exception {
        try (WebSocketServer server = WebSocketEchoServer.start(0);
                PeerProcess client = new PeerProcess(
                        Peers.NODE_DIR,
                        List.of(
                                "node",
                                "ws_peer.js",
                                "client",
                                "ws://127.0.0.1:" + server.port() + "/",
                                compression ? "--compression" : "--plain"))) {
            String ok = client.awaitLine("OK", 60_000);
            assertThat(ok).isEqualTo(compression ? "OK permessage-deflate" : "OK none");
            assertThat(client.awaitExit(10_000)).isZero();
        }
    }

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void ternClientAgainstNodeServer(boolean compression) throws Exception {
        try (PeerProcess server = new PeerProcess(
                Peers.NODE_DIR, List.of("node", "ws_peer.js", "server", compression ? "--compression" : "--plain"))) {
            int port = Integer.parseInt(
                    server.awaitLine("PORT", 30_000).substring(5).trim());
            DeflateParameters negotiated =
                    TernClientExchange.run(URI.create("ws://127.0.0.1:" + port + "/"), compression, 0);
            assertThat(negotiated != null).isEqualTo(compression);
            TernClientExchange.run(URI.create("ws://127.0.0.1:" + port + "/"), compression, 1000);
        }
    }
}
