package io.tern.server.drain;

import io.tern.server.config.TurnServerConfig;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.redirect.AlternateServers;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * coturn's static alternate servers: {@code alternate-server} for UDP and TCP clients (or
 * {@code udp-alternate-server} and {@code tcp-alternate-server} for each alone), and
 * {@code tls-alternate-server} for TLS clients. As in coturn, every Allocate is redirected, round
 * robin; and a list that names this server itself redirects nobody, so that one config file shared
 * by every node of a pool cannot send clients round in circles.
 */
public final class StaticAlternates implements AlternateSource {
    private static final System.Logger LOG = System.getLogger("tern");

    private final Map<TransportProtocol, List<InetSocketAddress>> lists;
    private volatile AlternateServers current;

    private StaticAlternates(Map<TransportProtocol, List<InetSocketAddress>> lists) {
        this.lists = lists;
        this.current = build(lists);
    }

    /** The lists {@code config} gives, per client transport. */
    public static StaticAlternates from(TurnServerConfig config) {
        Map<TransportProtocol, List<InetSocketAddress>> lists = new EnumMap<>(TransportProtocol.class);
        lists.put(
                TransportProtocol.UDP,
                config.udpAlternateServers().isEmpty() ? config.alternateServers() : config.udpAlternateServers());
        lists.put(
                TransportProtocol.TCP,
                config.tcpAlternateServers().isEmpty() ? config.alternateServers() : config.tcpAlternateServers());
        lists.put(TransportProtocol.TLS, config.tlsAlternateServers());
        return new StaticAlternates(lists);
    }

    /**
     * Drops the list of each transport that names one of this server's own listeners, once they
     * are bound (a wildcard listener matches every address of the host on its port).
     */
    public void excludeSelf(Map<TransportProtocol, List<InetSocketAddress>> listeners) {
        Map<TransportProtocol, List<InetSocketAddress>> kept = new EnumMap<>(TransportProtocol.class);
        for (Map.Entry<TransportProtocol, List<InetSocketAddress>> entry : lists.entrySet()) {
            List<InetSocketAddress> own = listeners.getOrDefault(entry.getKey(), List.of());
            InetSocketAddress self = entry.getValue().stream()
                    .filter(alternate -> own.stream().anyMatch(listener -> isSelf(alternate, listener)))
                    .findFirst()
                    .orElse(null);
            if (self != null) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "the " + entry.getKey().name().toLowerCase(java.util.Locale.ROOT)
                                + " alternate servers include this server itself (" + self
                                + "): its clients are not redirected, as in coturn");
                kept.put(entry.getKey(), List.of());
            } else {
                kept.put(entry.getKey(), entry.getValue());
            }
        }
        current = build(kept);
    }

    @Override
    public AlternateServers alternates() {
        return current;
    }

    private static AlternateServers build(Map<TransportProtocol, List<InetSocketAddress>> lists) {
        AlternateServers.Builder builder = AlternateServers.builder(AlternateServers.Mode.ALWAYS);
        boolean any = false;
        for (Map.Entry<TransportProtocol, List<InetSocketAddress>> entry : lists.entrySet()) {
            for (InetSocketAddress alternate : entry.getValue()) {
                builder.add(entry.getKey(), TransportAddress.of(alternate));
                any = true;
            }
        }
        return any ? builder.build() : AlternateServers.NONE;
    }

    static boolean isSelf(InetSocketAddress alternate, InetSocketAddress listener) {
        if (alternate.getPort() != listener.getPort()) {
            return false;
        }
        if (!listener.getAddress().isAnyLocalAddress()) {
            return listener.getAddress().equals(alternate.getAddress());
        }
        try {
            return alternate.getAddress().isLoopbackAddress()
                    || NetworkInterface.getByInetAddress(alternate.getAddress()) != null;
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
    }
}
