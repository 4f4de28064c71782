package io.tern.turn.policy;

import io.tern.stun.address.TransportAddress;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An inclusive range of IPv4 or IPv6 addresses, written as coturn does ({@code a.b.c.d} or
 * {@code a.b.c.d-e.f.g.h}) or as a CIDR block ({@code a.b.c.d/n}). Addresses are compared as
 * unsigned 128-bit numbers (two longs); IPv4 uses only the low long.
 */
public final class IpRange {
    private final boolean ipv4;
    private final long lowHi;
    private final long lowLo;
    private final long highHi;
    private final long highLo;
    private final String text;

    private IpRange(boolean ipv4, long lowHi, long lowLo, long highHi, long highLo, String text) {
        this.ipv4 = ipv4;
        this.lowHi = lowHi;
        this.lowLo = lowLo;
        this.highHi = highHi;
        this.highLo = highLo;
        this.text = text;
    }

    /** Parses a range; throws {@link IllegalArgumentException} naming the text when it is not one. */
    public static IpRange parse(String text) {
        String s = text.trim();
        try {
            int slash = s.indexOf('/');
            int dash = s.indexOf('-');
            if (slash >= 0) {
                byte[] base = literal(s.substring(0, slash));
                int bits = Integer.parseInt(s.substring(slash + 1));
                if (bits < 0 || bits > base.length * 8) {
                    throw new IllegalArgumentException("prefix length out of range in '" + text + "'");
                }
                byte[] low = base.clone();
                byte[] high = base.clone();
                for (int i = 0; i < base.length * 8; i++) {
                    if (i >= bits) {
                        low[i / 8] &= (byte) ~(0x80 >>> (i % 8));
                        high[i / 8] |= (byte) (0x80 >>> (i % 8));
                    }
                }
                return of(low, high, text);
            }
            if (dash >= 0) {
                return of(literal(s.substring(0, dash)), literal(s.substring(dash + 1)), text);
            }
            byte[] single = literal(s);
            return of(single, single, text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an IP range: '" + text + "'", e);
        }
    }

    private static IpRange of(byte[] low, byte[] high, String text) {
        if (low.length != high.length) {
            throw new IllegalArgumentException("mixed address families in '" + text + "'");
        }
        boolean v4 = low.length == 4;
        long[] l = toLongs(low);
        long[] h = toLongs(high);
        if (compare(l[0], l[1], h[0], h[1]) > 0) {
            throw new IllegalArgumentException("range start after range end in '" + text + "'");
        }
        return new IpRange(v4, l[0], l[1], h[0], h[1], text);
    }

    private static byte[] literal(String s) {
        String t = s.trim();
        boolean looksNumeric = !t.isEmpty() && (t.indexOf(':') >= 0 || t.chars().allMatch(c -> c == '.' || Character.isDigit(c)));
        if (!looksNumeric) {
            throw new IllegalArgumentException("not an IP address: '" + s + "'");
        }
        try {
            byte[] raw = InetAddress.getByName(t).getAddress();
            if (raw.length == 16 && isMapped(raw)) {
                return Arrays.copyOfRange(raw, 12, 16);
            }
            return raw;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: '" + s + "'", e);
        }
    }

    private static boolean isMapped(byte[] raw) {
        for (int i = 0; i < 10; i++) {
            if (raw[i] != 0) {
                return false;
            }
        }
        return raw[10] == (byte) 0xFF && raw[11] == (byte) 0xFF;
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
    public String toString() {
        return text;
    }
}
