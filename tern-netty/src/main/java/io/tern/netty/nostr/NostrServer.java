package io.tern.netty.nostr;

import io.netty.channel.EventLoopGroup;
import io.tern.netty.NettyTransports;
import io.tern.netty.websocket.WebSocketServer;
import io.tern.nostr.crypto.SchnorrVerifier;
import io.tern.nostr.engine.NostrConfig;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The relay on a port of its own ({@code ./tern nostr}): WebSocket connections, and plain HTTP for
 * NIP-11 and CORS preflights, on {@code threads} event loops. The engine runs on the first loop;
 * connections accepted on the others hand their messages to it (see {@link NostrRelay}).
 */
public final class NostrServer implements AutoCloseable {
    private final EventLoopGroup loops;
    private final NostrRelay relay;
    private final WebSocketServer listener;

    private NostrServer(EventLoopGroup loops, NostrRelay relay, WebSocketServer listener) {
        this.loops = loops;
        this.relay = relay;
        this.listener = listener;
    }

    /**
     * Opens the store, binds and starts accepting.
     *
     * @param threads event loops for connections; the engine shares the first
     */
    public static NostrServer start(
            InetSocketAddress address,
            int threads,
            NostrConfig config,
            NostrRelay.StoreOpener store,
            SchnorrVerifier verifier,
            LongSupplier epochSeconds,
            String version)
            throws Exception {
        if (threads < 1) {
            throw new IllegalArgumentException("threads: invalid value '" + threads + "' (expected >= 1)");
        }
        EventLoopGroup loops = NettyTransports.newGroup(threads, "tern-nostr");
        NostrRelay relay = null;
        try {
            relay = NostrRelay.open(config, loops.next(), store, verifier, epochSeconds, version);
            return new NostrServer(loops, relay, WebSocketServer.start(address, loops, relay.endpoint()));
        } catch (Exception | Error e) {
            if (relay != null) {
                relay.close();
            }
            loops.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    public NostrRelay relay() {
        return relay;
    }

    public InetSocketAddress localAddress() {
        return listener.localAddress();
    }

    public int port() {
        return listener.port();
    }

    /** Stops accepting, closes every connection, then the store. */
    @Override
    public void close() {
        listener.close();
        relay.close();
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
