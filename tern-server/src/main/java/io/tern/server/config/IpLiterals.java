package io.tern.server.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parses IP address literals without ever resolving a host name (unlike
 * {@link InetAddress#getByName}, which falls back to DNS for anything that is not a literal).
 */
public final class IpLiterals
{
    private IpLiterals()
    {
    }

    /**
     * @return the address
     * @throws IllegalArgumentException if {@code text} is not a dotted-quad IPv4 or an IPv6 literal
     */
    public static InetAddress parse(final String text)
    {
        if (text.indexOf(':') >= 0)
        {
            return parseIpv6(text);
        }
        return parseIpv4(text);
    }

    private static InetAddress parseIpv4(final String text)
    {
        final byte[] bytes = new byte[4];
        int part = 0;
        int i = 0;
        while (true)
        {
            final int start = i;
            int value = 0;
            while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9' && i - start < 3)
            {
                value = value * 10 + (text.charAt(i) - '0');
                i++;
            }
            final int digits = i - start;
            if (digits == 0 || value > 255 || (digits > 1 && text.charAt(start) == '0'))
            {
                throw new IllegalArgumentException("not an IP address");
            }
            bytes[part++] = (byte)value;
            if (part == 4)
            {
                if (i != text.length())
                {
                    throw new IllegalArgumentException("not an IP address");
                }
                break;
            }
            if (i >= text.length() || text.charAt(i) != '.')
            {
                throw new IllegalArgumentException("not an IP address");
            }
            i++;
        }
        try
        {
            return InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("not an IP address", ex);
        }
    }

    private static InetAddress parseIpv6(final String text)
    {
        if (text.length() > 45 || text.isEmpty())
        {
            throw new IllegalArgumentException("not an IP address");
        }
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            final boolean ok = c == ':' || c == '.' || Character.digit(c, 16) >= 0 && c < 128;
            if (!ok)
            {
                throw new IllegalArgumentException("not an IP address");
            }
        }
        if (text.charAt(0) == '.')
        {
            throw new IllegalArgumentException("not an IP address");
        }
        // Only hex digits, ':' and '.', starting with a hex digit or ':' and containing ':':
        // InetAddress treats this as a numeric literal and never consults DNS.
        try
        {
            return InetAddress.getByName(text);
        }
        catch (final UnknownHostException | IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("not an IP address", ex);
        }
    }
}
