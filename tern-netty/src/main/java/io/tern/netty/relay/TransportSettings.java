package io.tern.netty.relay;

import io.tern.netty.stream.StreamSettings;
import io.tern.netty.stream.TlsContextSource;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnShared;
import java.net.InetSocketAddress;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/**
 * What {@link TurnServerTransport} listens on and how. Listener ids follow the order UDP, TCP, TLS:
 * UDP addresses get 0..u-1, TCP u..u+t-1, TLS the rest.
 *
 * @param udpAddresses  client-facing UDP addresses
 * @param tcpAddresses  client-facing TCP addresses (TURN over TCP)
 * @param tlsAddresses  client-facing TLS addresses (TURN over TLS); need {@code tls}
 * @param tls           the TLS context for {@code tlsAddresses}, or null; the caller closes it
 * @param streams       bounds on TCP and TLS connections
 * @param relayThreads  engines, each on its own event loop with its own SO_REUSEPORT listeners
 * @param wallClock     the engines' wall clock (REST username expiry)
 * @param sockets       kernel buffers and write queue bound of every UDP socket
 * @param udpIo         how the relay threads do UDP I/O (resolved at start: FFM where it cannot run fails)
 * @param leases        the fleet's lease store for the engines' ACQUIRE_LEASE and RELEASE_LEASE
 */
public record TransportSettings(
        List<InetSocketAddress> udpAddresses,
        List<InetSocketAddress> tcpAddresses,
        List<InetSocketAddress> tlsAddresses,
        TlsContextSource tls,
        StreamSettings streams,
        int relayThreads,
        TurnEngineConfig engineConfig,
        TurnShared shared,
        InstantSource wallClock,
        UdpSocketSettings sockets,
        UdpIo udpIo,
        FleetLeases leases) {

    public TransportSettings {
        Objects.requireNonNull(udpIo, "udpIo");
        Objects.requireNonNull(leases, "leases");
        udpAddresses = List.copyOf(udpAddresses);
        tcpAddresses = List.copyOf(tcpAddresses);
        tlsAddresses = List.copyOf(tlsAddresses);
        Objects.requireNonNull(streams, "streams");
        if (!tlsAddresses.isEmpty() && tls == null) {
            throw new IllegalArgumentException("TLS listeners need a TLS context");
        }
    }

    /** Without a fleet ({@link FleetLeases#NONE}). */
    public TransportSettings(
            List<InetSocketAddress> udpAddresses,
            List<InetSocketAddress> tcpAddresses,
            List<InetSocketAddress> tlsAddresses,
            TlsContextSource tls,
            StreamSettings streams,
            int relayThreads,
            TurnEngineConfig engineConfig,
            TurnShared shared,
            InstantSource wallClock,
            UdpSocketSettings sockets,
            UdpIo udpIo) {
        this(
                udpAddresses,
                tcpAddresses,
                tlsAddresses,
                tls,
                streams,
                relayThreads,
                engineConfig,
                shared,
                wallClock,
                sockets,
                udpIo,
                FleetLeases.NONE);
    }

    /** UDP only, with default stream bounds, the system clock and default socket settings. */
    public static TransportSettings udp(
            List<InetSocketAddress> udpAddresses, int relayThreads, TurnEngineConfig engineConfig, TurnShared shared) {
        return new TransportSettings(
                udpAddresses,
                List.of(),
                List.of(),
                null,
                StreamSettings.defaults(),
                relayThreads,
                engineConfig,
                shared,
                InstantSource.system(),
                UdpSocketSettings.DEFAULT,
                UdpIo.AUTO);
    }
}
