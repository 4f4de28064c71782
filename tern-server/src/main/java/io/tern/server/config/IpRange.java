package io.tern.server.config;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Objects;

/**
 * An inclusive range of addresses of one family, from coturn's {@code allowed-peer-ip} /
 * {@code denied-peer-ip} syntax: {@code ip} or {@code ip1-ip2}; Tern also accepts CIDR {@code ip/n}.
 */
public record IpRange(InetAddress first, InetAddress last)
{
    public IpRange
    {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(last, "last");
        if (first.getAddress().length != last.getAddress().length)
        {
            throw new IllegalArgumentException("mixed address families");
        }
        if (Arrays.compareUnsigned(first.getAddress(), last.getAddress()) > 0)
        {
            throw new IllegalArgumentException("start is above end");
        }
    }

    /**
     * @throws IllegalArgumentException with a short reason if {@code text} is not a valid range
     */
    public static IpRange parse(final String text)
    {
        final int slash = text.indexOf('/');
        if (slash >= 0)
        {
            return parseCidr(text.substring(0, slash), text.substring(slash + 1));
        }
        final int dash = text.indexOf('-');
        if (dash >= 0)
        {
            final InetAddress first = IpLiterals.parse(text.substring(0, dash).trim());
            final InetAddress last = IpLiterals.parse(text.substring(dash + 1).trim());
            return new IpRange(first, last);
        }
        final InetAddress single = IpLiterals.parse(text.trim());
        return new IpRange(single, single);
    }

    private static IpRange parseCidr(final String addressText, final String prefixText)
    {
        final InetAddress address = IpLiterals.parse(addressText.trim());
        final byte[] bytes = address.getAddress();
        final int maxPrefix = bytes.length * 8;
        final int prefix;
        try
        {
            prefix = Integer.parseInt(prefixText.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("bad prefix length", ex);
        }
        if (prefix < 0 || prefix > maxPrefix || !prefixText.trim().chars().allMatch(Character::isDigit))
        {
            throw new IllegalArgumentException("prefix length must be 0-" + maxPrefix);
        }
        final byte[] low = bytes.clone();
        final byte[] high = bytes.clone();
        for (int bit = prefix; bit < maxPrefix; bit++)
        {
            final int mask = 0x80 >>> (bit & 7);
            low[bit >>> 3] &= (byte)~mask;
            high[bit >>> 3] |= (byte)mask;
        }
        try
        {
            return new IpRange(InetAddress.getByAddress(low), InetAddress.getByAddress(high));
        }
        catch (final java.net.UnknownHostException ex)
        {
            throw new IllegalArgumentException("bad address", ex);
        }
    }

    public boolean contains(final InetAddress address)
    {
        final byte[] bytes = address.getAddress();
        return bytes.length == first.getAddress().length
            && Arrays.compareUnsigned(first.getAddress(), bytes) <= 0
            && Arrays.compareUnsigned(bytes, last.getAddress()) <= 0;
    }

    /** coturn syntax: {@code ip} or {@code ip1-ip2}. */
    @Override
    public String toString()
    {
        final String firstText = first.getHostAddress();
        return first.equals(last) ? firstText : firstText + "-" + last.getHostAddress();
    }
}
