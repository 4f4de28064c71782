package io.tern.netty;

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
    private final int slots;

    private HeadroomRecvByteBufAllocator(int headroomBytes, int bufferBytes, int slots) {
        super(bufferBytes);
        this.headroomBytes = headroomBytes;
        this.slots = slots;
    }

    /**
     * Sets the channel to receive up to {@code datagramsPerRead} datagrams per syscall (recvmmsg,
     * on epoll; NIO reads one), each with {@code headroomBytes} free in front of it, and at most
     * {@code datagramsPerWakeup} datagrams each time the socket is reported readable.
     *
     * <p>Reading stops at the first syscall that did not fill every slot: the socket is then most
     * likely empty, and Netty's epoll is level-triggered, so anything that arrived meanwhile is
     * reported on the next turn. That spares the read that would only return EAGAIN. Keep
     * {@code headroomBytes + datagramsPerRead * (headroomBytes + datagramBytes)} within the
     * allocator's pooled sizes (16896 bytes for Netty's adaptive allocator under a small heap), or
     * every read allocates a buffer of its own.
     */
    public static void configure(
            DatagramChannel channel,
            int headroomBytes,
            int datagramBytes,
            int datagramsPerRead,
            int datagramsPerWakeup) {
        int slotBytes = headroomBytes + datagramBytes;
        int slots = NettyTransports.epoll() ? datagramsPerRead : 1;
        channel.config()
                .setRecvByteBufAllocator(
                        new HeadroomRecvByteBufAllocator(headroomBytes, headroomBytes + slots * slotBytes, slots));
        if (slots > 1) {
            channel.config().setOption(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, slotBytes);
        }
        channel.config().setMaxMessagesPerRead(datagramsPerWakeup);
    }

    @Override
    public Handle newHandle() {
        return new HeadroomHandle((ExtendedHandle) super.newHandle(), headroomBytes, slots);
    }

    private static final class HeadroomHandle implements RecvByteBufAllocator.ExtendedHandle {
        private final ExtendedHandle delegate;
        private final int headroomBytes;
        private final int slots;
        private int lastMessagesRead;

        HeadroomHandle(ExtendedHandle delegate, int headroomBytes, int slots) {
            this.delegate = delegate;
            this.headroomBytes = headroomBytes;
            this.slots = slots;
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
            lastMessagesRead = 0;
            delegate.reset(config);
        }

        @Override
        public void incMessagesRead(int numMessages) {
            lastMessagesRead = numMessages;
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
            return lastMessagesRead >= slots && delegate.continueReading();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return lastMessagesRead >= slots && delegate.continueReading(maybeMoreDataSupplier);
        }

        @Override
        public void readComplete() {
            delegate.readComplete();
        }
    }
}
