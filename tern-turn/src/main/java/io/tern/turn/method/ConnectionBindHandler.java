package io.tern.turn.method;

import io.tern.stun.attribute.ConnectionId;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.turn.allocation.PeerConnection;
import io.tern.turn.engine.EngineState;
import io.tern.turn.engine.RequestContext;

/**
 * ConnectionBind (RFC 6062 §5.4): a new client data connection claims a peer connection by its
 * CONNECTION-ID; after the answer both carry raw bytes.
 */
public final class ConnectionBindHandler {
    private final EngineState engine;

    public ConnectionBindHandler(EngineState engine) {
        this.engine = engine;
    }

    public void handle(RequestContext request) {
        // §5.4: only on a TCP or TLS connection that is not a control connection (400).
        if (!request.client().isStream() || request.allocation() != null) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        // §5.4: a CONNECTION-ID naming a peer connection that waits for its bind, else 400.
        long id = ConnectionId.read(request.message());
        if (id >= 0 && engine.shards > 1 && EngineState.shardOf(id) != engine.shard) {
            // Another relay thread's connection: the data connection moves there, message and all.
            if (EngineState.shardOf(id) < engine.shards) {
                StunMessageDecoder message = request.message();
                engine.commands.migrateConnection(
                        request.client(),
                        EngineState.shardOf(id),
                        message.buffer(),
                        message.offset(),
                        message.length());
                return;
            }
            id = -1;
        }
        PeerConnection connection = id < 0 ? null : engine.peerConnections.byConnectionId(id);
        if (connection == null || connection.state() != PeerConnection.State.AWAITING_BIND) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        // §5.4: the data connection authenticates with the allocation's own credentials (441).
        if (!connection
                .owner()
                .credential()
                .username()
                .equals(request.credential().username())) {
            request.signedError(ErrorCode.WRONG_CREDENTIALS);
            return;
        }
        engine.timers.cancel(connection);
        engine.peerConnections.bind(connection, request.client().connectionId());
        request.startSuccess();
        request.finishSigned();
        // The answer is queued first, so it reaches the client before any relayed byte.
        engine.commands.bindConnection(request.client(), connection.relayId());
    }
}
