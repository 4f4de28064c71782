package io.tern.turn.policy;

import io.tern.stun.address.IpLiterals;
import io.tern.stun.address.TransportAddress;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * An inclusive range of IPv4 or IPv6 addresses, written as coturn's {@code allowed-peer-ip} and
 * {@code denied-peer-ip} are ({@code a.b.c.d} or {@code a.b.c.d-e.f.g.h}) or, as a Tern extension,
 * as a CIDR block ({@code a.b.c.d/n}). Addresses are compared as unsigned 128-bit numbers (two
 * longs); IPv4 uses only the low long. Two ranges are equal when they hold the same addresses,
 * however they were written.
 */
public final class IpRange {
    private final boolean ipv4;
    private final long lowHi;
    private final long lowLo;
    private final long highHi;
    private final long highLo;

    private IpRange(boolean ipv4, long lowHi, long lowLo, long highHi, long highLo) {
        this.ipv4 = ipv4;
        this.lowHi = lowHi;
        this.lowLo = lowLo;
        this.highHi = highHi;
        this.highLo = highLo;
    }

    /**
     * Parses a range. Literals are strict ({@link IpLiterals}): no host names, no {@code 1.2.3}.
     *
     * @throws IllegalArgumentException with a short reason naming the offending part
     */
    public static IpRange parse(String text) {
        String s = text.trim();
        int slash = s.indexOf('/');
        if (slash >= 0) {
            return cidr(literal(s.substring(0, slash)), s.substring(slash + 1).trim());
        }
        int dash = s.indexOf('-');
        if (dash >= 0) {
            return of(literal(s.substring(0, dash)), literal(s.substring(dash + 1)));
        }
        byte[] single = literal(s);
        return of(single, single);
    }

    private static IpRange cidr(byte[] base, String prefixText) {
        int maxBits = base.length * 8;
        if (prefixText.isEmpty()
                || prefixText.length() > 3
                || !prefixText.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(prefixText) > maxBits) {
            throw new IllegalArgumentException("prefix length must be 0-" + maxBits + ": '" + prefixText + "'");
        }
        int bits = Integer.parseInt(prefixText);
        byte[] low = base.clone();
        byte[] high = base.clone();
        for (int i = bits; i < maxBits; i++) {
            low[i / 8] &= (byte) ~(0x80 >>> (i % 8));
            high[i / 8] |= (byte) (0x80 >>> (i % 8));
        }
        return of(low, high);
    }

    private static IpRange of(byte[] low, byte[] high) {
        if (low.length != high.length) {
            throw new IllegalArgumentException("mixed address families");
        }
        long[] l = toLongs(low);
        long[] h = toLongs(high);
        if (compare(l[0], l[1], h[0], h[1]) > 0) {
            throw new IllegalArgumentException("range start is above its end");
        }
        return new IpRange(low.length == 4, l[0], l[1], h[0], h[1]);
    }

    private static byte[] literal(String part) {
        String t = part.trim();
        try {
            return IpLiterals.parse(t).getAddress();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an IP address: '" + t + "'", e);
        }
    }

    private static long[] toLongs(byte[] raw) {
        long hi = 0;
        long lo = 0;
        if (raw.length == 4) {
            for (byte b : raw) {
                lo = (lo << 8) | (b & 0xFF);
            }
            return new long[] {0, lo};
        }
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (raw[i] & 0xFF);
        }
        for (int i = 8; i < 16; i++) {
            lo = (lo << 8) | (raw[i] & 0xFF);
        }
        return new long[] {hi, lo};
    }

    private static int compare(long aHi, long aLo, long bHi, long bLo) {
        int c = Long.compareUnsigned(aHi, bHi);
        return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
    }

    public boolean contains(TransportAddress address) {
        if (address.isIpv4() != ipv4) {
            return false;
        }
        long hi;
        long lo;
        if (ipv4) {
            hi = 0;
            lo = address.ipv4() & 0xFFFF_FFFFL;
        } else {
            byte[] b = address.ipv6Bytes();
            hi = 0;
            lo = 0;
            for (int i = 0; i < 8; i++) {
                hi = (hi << 8) | (b[i] & 0xFF);
            }
            for (int i = 8; i < 16; i++) {
                lo = (lo << 8) | (b[i] & 0xFF);
            }
        }
        return compare(hi, lo, lowHi, lowLo) >= 0 && compare(hi, lo, highHi, highLo) <= 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpRange r
                && ipv4 == r.ipv4
                && lowHi == r.lowHi
                && lowLo == r.lowLo
                && highHi == r.highHi
                && highLo == r.highLo;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ipv4, lowHi, lowLo, highHi, highLo);
    }

    /** coturn's syntax, which {@link #parse} reads back: {@code ip}, or {@code ip1-ip2} (a CIDR block too). */
    @Override
    public String toString() {
        String low = address(lowHi, lowLo);
        return lowHi == highHi && lowLo == highLo ? low : low + "-" + address(highHi, highLo);
    }

    private String address(long hi, long lo) {
        byte[] raw = new byte[ipv4 ? 4 : 16];
        for (int i = raw.length - 1, shift = 0; i >= 0; i--, shift += 8) {
            raw[i] = (byte) (shift < 64 ? lo >>> shift : hi >>> (shift - 64));
        }
        try {
            return InetAddress.getByAddress(raw).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 or 16 bytes are always an address", e);
        }
    }
}
