package io.tern.server.config;

import io.tern.stun.address.IpLiterals;
import java.net.InetAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * coturn's {@code external-ip}: {@code public} (one address reported for every relay address) or
 * {@code public/private} (the relay address {@code private} is reported as {@code public}).
 * Note for the engine: coturn also adds each {@code private} part to the allowed peer list.
 */
public record ExternalIpMapping(InetAddress publicIp, Optional<InetAddress> privateIp) {
    public ExternalIpMapping {
        Objects.requireNonNull(publicIp, "publicIp");
        Objects.requireNonNull(privateIp, "privateIp");
    }

    /** @throws IllegalArgumentException if either part is not an IP literal or families differ */
    public static ExternalIpMapping parse(final String text) {
        final int slash = text.indexOf('/');
        if (slash < 0) {
            return new ExternalIpMapping(IpLiterals.parse(text.trim()), Optional.empty());
        }
        final InetAddress publicIp = IpLiterals.parse(text.substring(0, slash).trim());
        final InetAddress privateIp = IpLiterals.parse(text.substring(slash + 1).trim());
        if (publicIp.getAddress().length != privateIp.getAddress().length) {
            throw new IllegalArgumentException("public and private addresses are of different families");
        }
        return new ExternalIpMapping(publicIp, Optional.of(privateIp));
    }

    @Override
    public String toString() {
        return publicIp.getHostAddress()
                + privateIp.map(ip -> "/" + ip.getHostAddress()).orElse("");
    }
}
