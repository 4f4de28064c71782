package io.tern.transport.udp;

import io.tern.transport.relay.TransportSettings;
import io.tern.transport.relay.TurnServerTransport;
import io.tern.turn.engine.TurnEngine;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * TURN over UDP only: a {@link TurnServerTransport} without TCP or TLS listeners, kept for callers
 * that need nothing else.
 */
public final class TurnUdpServer implements AutoCloseable {
    private final TurnServerTransport transport;

    private TurnUdpServer(TurnServerTransport transport) {
        this.transport = transport;
    }

    public static TurnUdpServer start(UdpServerSettings settings) throws InterruptedException {
        return new TurnUdpServer(TurnServerTransport.start(TransportSettings.udp(settings.listenAddresses(),
                settings.relayThreads(), settings.engineConfig(), settings.shared(), settings.timerPeriodNs())));
    }

    /** The addresses actually bound, in listener-id order (useful when port 0 was asked for). */
    public List<InetSocketAddress> boundAddresses() {
        return transport.udpAddresses();
    }

    /** The engines, one per relay thread; read their counters, never drive them from here. */
    public List<TurnEngine> engines() {
        return transport.engines();
    }

    public int relayThreads() {
        return transport.relayThreads();
    }

    /** Deletes every allocation, closes every socket and stops the threads. */
    @Override
    public void close() {
        transport.close();
    }
}
