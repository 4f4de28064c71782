package io.tern.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * Receives each datagram a few bytes into its buffer, so that a header (the 4-byte ChannelData
 * header) can be written in front of the payload and the datagram relayed without a copy.
 */
public final class HeadroomRecvByteBufAllocator extends FixedRecvByteBufAllocator {
    private final int headroomBytes;

    public HeadroomRecvByteBufAllocator(int headroomBytes, int datagramBytes) {
        super(headroomBytes + datagramBytes);
        this.headroomBytes = headroomBytes;
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
