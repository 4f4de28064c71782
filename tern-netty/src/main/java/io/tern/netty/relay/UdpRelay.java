package io.tern.netty.relay;

import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.unix.Socket;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.EventLoopFlush.Slot;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/** A UDP relay socket of an allocation, with what it takes to send an empty datagram. */
final class UdpRelay {
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);

    final Slot slot;
    /** The same file descriptor, for the one write Netty will not make; never closed through here. */
    private Socket raw;
    /** Queued to since the last {@link UdpSockets#flushQueued}. */
    boolean written;

    UdpRelay(Slot slot) {
        this.slot = slot;
    }

    /**
     * Sends a zero-length datagram (RFC 8656 §12.5 relays empty ChannelData as one). Netty drops
     * empty datagram writes, so after flushing what is queued (to keep the order) it goes out with
     * one sendto on the channel's own socket. Returns false where that is not possible (NIO) or
     * the socket is full.
     */
    boolean sendEmpty(EventLoopFlush flush, InetSocketAddress recipient) {
        if (!(slot.channel() instanceof EpollDatagramChannel epoll)) {
            return false;
        }
        EventLoopFlush.flush(slot);
        if (raw == null) {
            raw = new Socket(epoll.fd().intValue());
        }
        try {
            return raw.sendTo(EMPTY, 0, 0, recipient.getAddress(), recipient.getPort()) == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
