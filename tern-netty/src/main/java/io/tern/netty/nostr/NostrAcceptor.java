package io.tern.netty.nostr;

import io.netty.handler.codec.http.FullHttpResponse;
import io.tern.netty.websocket.WebSocketAcceptor;
import io.tern.netty.websocket.WebSocketListener;
import io.tern.netty.websocket.WebSocketRequest;

/**
 * Every WebSocket request on the relay's path becomes a client; plain HTTP on the relay's own port
 * gets the NIP-11 document, CORS preflights, or a line saying what this is.
 */
final class NostrAcceptor implements WebSocketAcceptor {
    private final NostrRelay relay;

    NostrAcceptor(NostrRelay relay) {
        this.relay = relay;
    }

    @Override
    public WebSocketListener accept(WebSocketRequest request) {
        return new NostrConnection(relay);
    }

    @Override
    public FullHttpResponse respond(WebSocketRequest request) {
        return relay.information().respond(request.method(), request.field("accept"));
    }
}
