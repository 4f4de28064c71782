package io.tern.server.drain;

import io.netty.util.NetUtil;
import io.tern.cluster.NodeRegistry;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.redirect.AlternateServers;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Locale;

/**
 * A fleet's node registry ({@code cluster-redis}) as the source of alternates: while this node
 * drains, a new Allocate is sent (300 Try Alternate) to the least loaded live nodes that are not
 * draining and listen on the client's transport. The registry answers from memory, so this never
 * waits on Redis.
 */
public final class RegistryAlternates implements AlternateSource {
    /** Enough to survive one alternate dying before the next refresh, few enough to keep the list cheap. */
    static final int MAX_PER_TRANSPORT = 4;

    private final NodeRegistry registry;

    public RegistryAlternates(NodeRegistry registry) {
        this.registry = registry;
    }

    @Override
    public AlternateServers alternates() {
        AlternateServers.Builder builder = AlternateServers.builder(AlternateServers.Mode.WHILE_DRAINING);
        for (TransportProtocol transport : TransportProtocol.values()) {
            for (String listener : registry.alternates(transport.name().toLowerCase(Locale.ROOT), MAX_PER_TRANSPORT)) {
                InetSocketAddress address = parse(listener);
                if (address != null) {
                    builder.add(transport, TransportAddress.of(address));
                }
            }
        }
        return builder.build();
    }

    /**
     * {@code HOST:PORT} or {@code [IPV6]:PORT} as nodes register their listeners; null for anything
     * else (a node of another version), which is skipped rather than resolved: a name would mean a
     * DNS lookup on the timer thread, and ALTERNATE-SERVER carries an address.
     */
    static InetSocketAddress parse(String listener) {
        int colon = listener.lastIndexOf(':');
        if (colon <= 0 || colon == listener.length() - 1) {
            return null;
        }
        String host = listener.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        InetAddress ip = NetUtil.createInetAddressFromIpAddressString(host);
        int port;
        try {
            port = Integer.parseInt(listener.substring(colon + 1));
        } catch (NumberFormatException notAPort) {
            return null;
        }
        return ip == null || port < 1 || port > 65535 ? null : new InetSocketAddress(ip, port);
    }
}
