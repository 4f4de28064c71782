package io.tern.server.config;

import io.netty.util.NetUtil;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where the relay listens and which addresses it relays from, once the options meet the host's
 * own addresses. Without {@code listening-ip} Tern listens on {@code ::}, one dual-stack socket per
 * port that serves IPv4 and IPv6 alike, where the host has IPv6, and on {@code 0.0.0.0} where it
 * has not. (Not both: beside a {@code 0.0.0.0} socket on the same port, a dual-stack {@code ::}
 * one could not be bound.)
 *
 * <p>The relay address of each family, as coturn picks it:
 * <ol>
 *   <li>the first {@code relay-ip} of that family; once any {@code relay-ip} is given, a family
 *       without one has no relay address;</li>
 *   <li>else the first specific (not wildcard) {@code listening-ip} of that family;</li>
 *   <li>else the host's first address of that family that is neither loopback, link-local nor
 *       multicast, a global one before an IPv6 unique-local one. IPv6 is looked up only when Tern
 *       listens on a wildcard; IPv4 always, falling back to 127.0.0.1 on a host without one.</li>
 * </ol>
 *
 * @param listenIps the addresses the UDP, TCP and TLS listeners bind
 * @param relayV4   the IPv4 relay address, if IPv4 allocations are served
 * @param relayV6   the IPv6 relay address, if IPv6 allocations are served
 * @param hostAddresses every address of the host's interfaces that are up, for expanding wildcards
 */
public record AddressPlan(
        List<InetAddress> listenIps,
        Optional<InetAddress> relayV4,
        Optional<InetAddress> relayV6,
        List<InetAddress> hostAddresses) {
    private static final System.Logger LOG = System.getLogger("tern");
    private static final InetAddress ANY_V4 = NetUtil.createInetAddressFromIpAddressString("0.0.0.0");
    private static final InetAddress ANY_V6 = NetUtil.createInetAddressFromIpAddressString("::");

    public AddressPlan {
        listenIps = List.copyOf(listenIps);
        Objects.requireNonNull(relayV4, "relayV4");
        Objects.requireNonNull(relayV6, "relayV6");
        hostAddresses = List.copyOf(hostAddresses);
    }

    /** The plan for this host. */
    public static AddressPlan forHost(final TurnServerConfig config) {
        return of(config, interfaceAddresses());
    }

    /** The plan for a host with these addresses, in interface order. */
    public static AddressPlan of(final TurnServerConfig config, final List<InetAddress> hostAddresses) {
        final boolean hostHasIpv6 = hostAddresses.stream().anyMatch(Inet6Address.class::isInstance);
        final List<InetAddress> listenIps =
                !config.listeningIps().isEmpty() ? config.listeningIps() : List.of(hostHasIpv6 ? ANY_V6 : ANY_V4);
        final Optional<InetAddress> relayV4;
        final Optional<InetAddress> relayV6;
        if (!config.relayIps().isEmpty()) {
            relayV4 = first(config.relayIps(), Inet4Address.class);
            relayV6 = first(config.relayIps(), Inet6Address.class);
        } else {
            final List<InetAddress> specific =
                    listenIps.stream().filter(ip -> !ip.isAnyLocalAddress()).toList();
            final boolean wildcard = specific.size() < listenIps.size();
            relayV4 = first(specific, Inet4Address.class)
                    .or(() -> hostAddress(hostAddresses, Inet4Address.class))
                    .or(() -> Optional.of(InetAddress.getLoopbackAddress()));
            relayV6 = first(specific, Inet6Address.class)
                    .or(() -> wildcard ? hostAddress(hostAddresses, Inet6Address.class) : Optional.empty());
        }
        return new AddressPlan(listenIps, relayV4, relayV6, hostAddresses);
    }

    private static Optional<InetAddress> first(
            final List<InetAddress> addresses, final Class<? extends InetAddress> family) {
        return addresses.stream().filter(family::isInstance).findFirst();
    }

    /** Rule 3: the host's first usable address of the family, a global one first. */
    private static Optional<InetAddress> hostAddress(
            final List<InetAddress> hostAddresses, final Class<? extends InetAddress> family) {
        final List<InetAddress> usable = hostAddresses.stream()
                .filter(family::isInstance)
                .filter(ip -> !ip.isLoopbackAddress()
                        && !ip.isLinkLocalAddress()
                        && !ip.isMulticastAddress()
                        && !ip.isAnyLocalAddress())
                .toList();
        return usable.stream()
                .filter(ip -> !isUniqueLocal(ip))
                .findFirst()
                .or(() -> usable.stream().findFirst());
    }

    /** fc00::/7, RFC 4193. */
    private static boolean isUniqueLocal(final InetAddress ip) {
        return ip instanceof Inet6Address && (ip.getAddress()[0] & 0xFE) == 0xFC;
    }

    /** The addresses a listener on {@code ip} stands for: every address of the host, for a wildcard. */
    public List<InetAddress> localAddresses(final InetAddress ip) {
        return ip.isAnyLocalAddress() ? hostAddresses : List.of(ip);
    }

    /** The relay addresses for the start-up line: {@code 192.0.2.7 and 2001:db8::7}. */
    public String describeRelay() {
        final List<String> relays = new ArrayList<>();
        relayV4.ifPresent(ip -> relays.add(NetUtil.toAddressString(ip)));
        relayV6.ifPresent(ip -> relays.add(NetUtil.toAddressString(ip)));
        return relays.isEmpty() ? "(none)" : String.join(" and ", relays);
    }

    /** Bound listeners for the start-up line: {@code [::]:3478 (IPv4 and IPv6)}, {@code (disabled)} for none. */
    public static String describe(final List<InetSocketAddress> listeners) {
        if (listeners.isEmpty()) {
            return "(disabled)";
        }
        return listeners.stream()
                .map(a -> NetUtil.toSocketAddressString(a)
                        + (a.getAddress() instanceof Inet6Address
                                        && a.getAddress().isAnyLocalAddress()
                                ? " (IPv4 and IPv6)"
                                : ""))
                .collect(Collectors.joining(" and "));
    }

    /** Every address of every network interface that is up, in interface order. */
    public static List<InetAddress> interfaceAddresses() {
        final List<InetAddress> all = new ArrayList<>();
        try {
            for (final NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nif.isUp()) {
                    all.addAll(Collections.list(nif.getInetAddresses()));
                }
            }
        } catch (final SocketException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot list network interfaces: " + e.getMessage());
        }
        return all;
    }
}
