package io.tern.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * Receives each datagram a few bytes into its buffer, so that a header (the 4-byte ChannelData
 * header) can be written in front of the payload and the datagram relayed without a copy.
 *
 * <p>With epoll, one buffer holds several datagram slots and Netty fills them with one recvmmsg
 * call. Slot {@code i} starts at {@code headroomBytes + i * (datagramBytes + headroomBytes)}, so the
 * bytes in front of each slot are free as long as the datagram before it was at most
 * {@code datagramBytes} long; a longer one (up to {@code datagramBytes + headroomBytes}) reaches into
 * the next slot's headroom and must be copied, not relayed in place.
 */
public final class HeadroomRecvByteBufAllocator extends FixedRecvByteBufAllocator {
    private final int headroomBytes;

    private HeadroomRecvByteBufAllocator(int headroomBytes, int bufferBytes) {
        super(bufferBytes);
        this.headroomBytes = headroomBytes;
    }

    /**
     * Sets the channel to receive up to {@code datagramsPerRead} datagrams per syscall (recvmmsg,
     * on epoll; NIO reads one) and one such syscall per wake-up, each datagram with
     * {@code headroomBytes} free in front of it.
     */
    public static void configure(DatagramChannel channel, int headroomBytes, int datagramBytes, int datagramsPerRead) {
        int slotBytes = headroomBytes + datagramBytes;
        int slots = NettyTransports.epoll() ? datagramsPerRead : 1;
        channel.config().setRecvByteBufAllocator(new HeadroomRecvByteBufAllocator(headroomBytes, headroomBytes + slots * slotBytes));
        if (slots > 1) {
            channel.config().setOption(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, slotBytes);
        }
        // One read per wake-up: Netty's epoll is level-triggered, so datagrams left in the socket are
        // reported again on the next turn, and the read that would only return EAGAIN is never made.
        channel.config().setMaxMessagesPerRead(1);
    }

    @Override
    public Handle newHandle() {
        return new HeadroomHandle((ExtendedHandle) super.newHandle(), headroomBytes);
    }

    private static final class HeadroomHandle implements RecvByteBufAllocator.ExtendedHandle {
        private final ExtendedHandle delegate;
        private final int headroomBytes;

        HeadroomHandle(ExtendedHandle delegate, int headroomBytes) {
            this.delegate = delegate;
            this.headroomBytes = headroomBytes;
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            ByteBuf buffer = alloc.directBuffer(delegate.guess());
            buffer.writerIndex(headroomBytes);
            buffer.readerIndex(headroomBytes);
            return buffer;
        }

        @Override
        public int guess() {
            return delegate.guess();
        }

        @Override
        public void reset(ChannelConfig config) {
            delegate.reset(config);
        }

        @Override
        public void incMessagesRead(int numMessages) {
            delegate.incMessagesRead(numMessages);
        }

        @Override
        public void lastBytesRead(int bytes) {
            delegate.lastBytesRead(bytes);
        }

        @Override
        public int lastBytesRead() {
            return delegate.lastBytesRead();
        }

        @Override
        public void attemptedBytesRead(int bytes) {
            delegate.attemptedBytesRead(bytes);
        }

        @Override
        public int attemptedBytesRead() {
            return delegate.attemptedBytesRead();
        }

        @Override
        public boolean continueReading() {
            return delegate.continueReading();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return delegate.continueReading(maybeMoreDataSupplier);
        }

        @Override
        public void readComplete() {
            delegate.readComplete();
        }
    }
}
