package io.tern.stun.address;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A mutable IP address and port, reused across packets so that the hot path never allocates an
 * {@link InetSocketAddress}. IPv4 is held in its 32-bit form; IPv4-mapped IPv6 addresses are
 * normalised to IPv4 on every write, so that policy checks can't be bypassed with {@code ::ffff:a.b.c.d}.
 */
public final class TransportAddress {
    public static final int FAMILY_IPV4 = 1;
    public static final int FAMILY_IPV6 = 2;

    private int family = FAMILY_IPV4;
    private int ipv4;
    private final byte[] ipv6 = new byte[16];
    private int port;

    public TransportAddress() {}

    public static TransportAddress ofIpv4(int ipv4, int port) {
        return new TransportAddress().setIpv4(ipv4, port);
    }

    public static TransportAddress of(InetSocketAddress address) {
        return new TransportAddress().set(address);
    }

    public static TransportAddress parse(String host, int port) {
        try {
            return of(new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + host, e);
        }
    }

    public int family() {
        return family;
    }

    public boolean isIpv4() {
        return family == FAMILY_IPV4;
    }

    public int ipv4() {
        return ipv4;
    }

    /** The 16 address bytes of an IPv6 address. Callers must not modify them. */
    public byte[] ipv6Bytes() {
        return ipv6;
    }

    public int port() {
        return port;
    }

    public TransportAddress port(int port) {
        this.port = port;
        return this;
    }

    public TransportAddress setIpv4(int ipv4, int port) {
        this.family = FAMILY_IPV4;
        this.ipv4 = ipv4;
        this.port = port;
        return this;
    }

    /** Sets an IPv6 address from 16 bytes, normalising IPv4-mapped addresses to IPv4. */
    public TransportAddress setIpv6(byte[] src, int srcOffset, int port) {
        if (isIpv4Mapped(src, srcOffset)) {
            return setIpv4(
                    ((src[srcOffset + 12] & 0xFF) << 24)
                            | ((src[srcOffset + 13] & 0xFF) << 16)
                            | ((src[srcOffset + 14] & 0xFF) << 8)
                            | (src[srcOffset + 15] & 0xFF),
                    port);
        }
        this.family = FAMILY_IPV6;
        System.arraycopy(src, srcOffset, ipv6, 0, 16);
        this.port = port;
        return this;
    }

    public TransportAddress set(TransportAddress other) {
        this.family = other.family;
        this.ipv4 = other.ipv4;
        System.arraycopy(other.ipv6, 0, ipv6, 0, 16);
        this.port = other.port;
        return this;
    }

    public TransportAddress set(InetSocketAddress address) {
        return set(address.getAddress(), address.getPort());
    }

    public TransportAddress set(InetAddress address, int port) {
        if (address instanceof Inet4Address) {
            // Inet4Address.hashCode() is the address itself, big-endian; getAddress() would allocate
            // an array, and this runs for every datagram received.
            return setIpv4(address.hashCode(), port);
        }
        return setIpv6(address.getAddress(), 0, port);
    }

    /**
     * IPv4 address and port packed into one long, a primitive map key for the common case. Only
     * meaningful for IPv4; IPv6 callers use {@link #equals}/{@link #hashCode}.
     */
    public long packedIpv4() {
        return ((ipv4 & 0xFFFF_FFFFL) << 16) | (port & 0xFFFF);
    }

    public static int unpackIpv4(long packed) {
        return (int) (packed >>> 16);
    }

    public static int unpackPort(long packed) {
        return (int) (packed & 0xFFFF);
    }

    public boolean sameIp(TransportAddress other) {
        if (family != other.family) {
            return false;
        }
        return family == FAMILY_IPV4 ? ipv4 == other.ipv4 : Arrays.equals(ipv6, other.ipv6);
    }

    public InetAddress toInetAddress() {
        try {
            if (family == FAMILY_IPV4) {
                return InetAddress.getByAddress(
                        new byte[] {(byte) (ipv4 >>> 24), (byte) (ipv4 >>> 16), (byte) (ipv4 >>> 8), (byte) ipv4});
            }
            return InetAddress.getByAddress(ipv6.clone());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    public InetSocketAddress toInetSocketAddress() {
        return new InetSocketAddress(toInetAddress(), port);
    }

    public TransportAddress copy() {
        return new TransportAddress().set(this);
    }

    private static boolean isIpv4Mapped(byte[] b, int off) {
        for (int i = 0; i < 10; i++) {
            if (b[off + i] != 0) {
                return false;
            }
        }
        return b[off + 10] == (byte) 0xFF && b[off + 11] == (byte) 0xFF;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TransportAddress other && port == other.port && sameIp(other);
    }

    @Override
    public int hashCode() {
        return family == FAMILY_IPV4 ? Long.hashCode(packedIpv4()) * 31 : Arrays.hashCode(ipv6) * 31 + port;
    }

    @Override
    public String toString() {
        if (family == FAMILY_IPV4) {
            return (ipv4 >>> 24) + "." + ((ipv4 >>> 16) & 0xFF) + "." + ((ipv4 >>> 8) & 0xFF) + "." + (ipv4 & 0xFF)
                    + ":" + port;
        }
        return "[" + toInetAddress().getHostAddress() + "]:" + port;
    }
}
