package io.tern.netty.relay;

import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DatagramChannel;

/**
 * Kernel buffers and the write queue bound of every UDP socket of the relay (client-facing
 * listeners and relay sockets). A burst of datagrams to one socket waits in its receive buffer
 * while the loop is busy, and in its send buffer and Netty's write queue while the kernel drains
 * it; too small, and a burst the bandwidth would carry is dropped by the relay's own sockets.
 *
 * @param receiveBufferBytes SO_RCVBUF asked for, 0 for the system default (the kernel caps it at
 *                           {@code net.core.rmem_max} and doubles it for its bookkeeping)
 * @param sendBufferBytes    SO_SNDBUF asked for, 0 for the system default ({@code net.core.wmem_max} caps it)
 * @param writeQueueBytes    datagrams queued in Netty for one socket beyond which relayed data is
 *                           dropped and counted, until the queue is half as long again
 */
public record UdpSocketSettings(int receiveBufferBytes, int sendBufferBytes, int writeQueueBytes) {
    /**
     * 4 MiB kernel buffers each way, as coturn asks for (Linux's default of 208 KiB holds fewer than
     * 100 full-size datagrams: a burst of 32 clients with 8 in flight overflowed the listener), and
     * 1 MiB of Netty write queue per socket.
     */
    public static final UdpSocketSettings DEFAULT = new UdpSocketSettings(4 << 20, 4 << 20, 1 << 20);

    void apply(DatagramChannel channel) {
        if (receiveBufferBytes > 0) {
            channel.config().setOption(ChannelOption.SO_RCVBUF, receiveBufferBytes);
        }
        if (sendBufferBytes > 0) {
            channel.config().setOption(ChannelOption.SO_SNDBUF, sendBufferBytes);
        }
        channel.config()
                .setOption(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(writeQueueBytes / 2, writeQueueBytes));
    }
}
