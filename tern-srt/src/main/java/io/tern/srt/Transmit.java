package io.tern.srt;

import java.net.InetSocketAddress;

/**
 * A datagram to send, filled by {@code pollTransmit}. {@link #data} belongs to the engine and is
 * valid until the next call into it: copy or write it out before that.
 */
public final class Transmit {
    public byte[] data;
    public int length;
    public InetSocketAddress remote;
}
