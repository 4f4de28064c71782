package io.tern.websocket.engine;

import java.util.SplittableRandom;

/** A client and a server engine wired together in memory, with a simulated clock. */
public final class EnginePair {
    public final RecordingSink clientSink = new RecordingSink();
    public final RecordingSink serverSink = new RecordingSink();
    public final WebSocketEngine client;
    public final WebSocketEngine server;
    public long nowNs = 1_000_000_000L;

    public EnginePair(WebSocketConfig clientConfig, WebSocketConfig serverConfig) {
        client = WebSocketEngine.client(clientConfig, clientSink, new SplittableRandom(42), "localhost", "/test");
        server = WebSocketEngine.server(serverConfig, serverSink);
        server.start(nowNs);
        client.start(nowNs);
        pump();
    }

    public static EnginePair open(WebSocketConfig config) {
        EnginePair pair = new EnginePair(config, config);
        if (pair.client.state() != WebSocketEngine.State.OPEN || pair.server.state() != WebSocketEngine.State.OPEN) {
            throw new AssertionError(
                    "handshake failed: " + pair.serverSink.closeReason + " / " + pair.clientSink.closeReason);
        }
        return pair;
    }

    /** Moves bytes both ways until neither side has anything left to say. */
    public void pump() {
        while (clientSink.wire.size() > 0 || serverSink.wire.size() > 0) {
            byte[] toServer = clientSink.takeWire();
            if (toServer.length > 0 && server.state() != WebSocketEngine.State.CLOSED) {
                server.onBytes(toServer, 0, toServer.length, nowNs);
            }
            byte[] toClient = serverSink.takeWire();
            if (toClient.length > 0 && client.state() != WebSocketEngine.State.CLOSED) {
                client.onBytes(toClient, 0, toClient.length, nowNs);
            }
        }
    }
}
