package io.tern.stun.address;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parses IP address literals without ever resolving a host name (unlike
 * {@link InetAddress#getByName}, which falls back to DNS for anything that is not a literal), and
 * without {@code InetAddress}'s legacy IPv4 forms ({@code 1.2.3} is not {@code 1.2.0.3} here).
 */
public final class IpLiterals {
    private IpLiterals() {}

    /**
     * @return the address; an IPv4-mapped IPv6 literal ({@code ::ffff:a.b.c.d}) gives the IPv4 address
     * @throws IllegalArgumentException if {@code text} is not a dotted-quad IPv4 or an IPv6 literal
     */
    public static InetAddress parse(String text) {
        if (text.indexOf(':') >= 0) {
            return parseIpv6(text);
        }
        return parseIpv4(text);
    }

    private static InetAddress parseIpv4(String text) {
        byte[] bytes = new byte[4];
        int part = 0;
        int i = 0;
        while (true) {
            int start = i;
            int value = 0;
            while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9' && i - start < 3) {
                value = value * 10 + (text.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || value > 255 || (digits > 1 && text.charAt(start) == '0')) {
                throw new IllegalArgumentException("not an IP address");
            }
            bytes[part++] = (byte) value;
            if (part == 4) {
                if (i != text.length()) {
                    throw new IllegalArgumentException("not an IP address");
                }
                break;
            }
            if (i >= text.length() || text.charAt(i) != '.') {
                throw new IllegalArgumentException("not an IP address");
            }
            i++;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address", e);
        }
    }

    private static InetAddress parseIpv6(String text) {
        if (text.length() > 45 || text.isEmpty()) {
            throw new IllegalArgumentException("not an IP address");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok = c == ':' || c == '.' || Character.digit(c, 16) >= 0 && c < 128;
            if (!ok) {
                throw new IllegalArgumentException("not an IP address");
            }
        }
        if (text.charAt(0) == '.') {
            throw new IllegalArgumentException("not an IP address");
        }
        // Only hex digits, ':' and '.', starting with a hex digit or ':' and containing ':':
        // InetAddress treats this as a numeric literal and never consults DNS.
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not an IP address", e);
        }
    }
}
