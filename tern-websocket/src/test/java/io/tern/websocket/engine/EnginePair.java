package io.tern.websocket.engine;

import io.tern.websocket.handshake.HttpHead;
import java.util.SplittableRandom;

/**
 * A client and a server engine wired together in memory, with a simulated clock. The fixture plays
 * the server's HTTP codec: it parses the client's request head and hands it to the server engine.
 */
public final class EnginePair {
    public final EnginePeer client;
    public final EnginePeer server;
    public long nowNs = 1_000_000_000L;

    public EnginePair(WebSocketConfig clientConfig, WebSocketConfig serverConfig) {
        client = EnginePeer.client(clientConfig, new SplittableRandom(42), "localhost", "/test");
        server = EnginePeer.server(serverConfig);
        server.engine.start(nowNs);
        client.engine.start(nowNs);
        byte[] request = client.takeWire();
        server.engine.acceptUpgrade(HttpHead.parse(request, 0, request.length), nowNs);
        server.drain();
        pump();
    }

    public static EnginePair open(WebSocketConfig config) {
        EnginePair pair = new EnginePair(config, config);
        if (pair.client.engine.state() != WebSocketEngine.State.OPEN
                || pair.server.engine.state() != WebSocketEngine.State.OPEN) {
            throw new AssertionError("handshake failed: " + pair.server.closeReason + " / " + pair.client.closeReason);
        }
        return pair;
    }

    /** Moves bytes both ways until neither side has anything left to say. */
    public void pump() {
        while (client.wire.size() > 0 || server.wire.size() > 0) {
            byte[] toServer = client.takeWire();
            if (toServer.length > 0 && !server.closed()) {
                server.feed(toServer, nowNs);
            }
            byte[] toClient = server.takeWire();
            if (toClient.length > 0 && !client.closed()) {
                client.feed(toClient, nowNs);
            }
        }
    }
}
