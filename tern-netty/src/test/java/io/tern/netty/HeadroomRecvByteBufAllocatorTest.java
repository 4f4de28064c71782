package io.tern.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.UncheckedBooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Buffer layout for batched receives, and the rule that a batch which did not fill ends the wake-up. */
class HeadroomRecvByteBufAllocatorTest {
    private static final int HEADROOM = 4;
    private static final int DATAGRAM = 2048;
    private static final int SLOTS = 8;

    private NioDatagramChannel channel;
    private RecvByteBufAllocator.ExtendedHandle handle;

    @BeforeEach
    void setUp() {
        assumeTrue(NettyTransports.epoll(), "batched reads need epoll");
        channel = new NioDatagramChannel();
        HeadroomRecvByteBufAllocator.configure(channel, HEADROOM, DATAGRAM, SLOTS, 64);
        handle = (RecvByteBufAllocator.ExtendedHandle)
                channel.config().getRecvByteBufAllocator().newHandle();
        handle.reset(channel.config());
    }

    @AfterEach
    void tearDown() {
        if (channel != null) {
            channel.unsafe().closeForcibly();
        }
    }

    @Test
    void aBufferHoldsEverySlotWithHeadroomInFrontOfTheFirst() {
        ByteBuf buffer = handle.allocate(UnpooledByteBufAllocator.DEFAULT);
        try {
            assertThat(buffer.capacity()).isEqualTo(HEADROOM + SLOTS * (HEADROOM + DATAGRAM));
            assertThat(buffer.readerIndex()).isEqualTo(HEADROOM);
            assertThat(buffer.writerIndex()).isEqualTo(HEADROOM);
        } finally {
            buffer.release();
        }
    }

    @Test
    void aFullBatchReadsAgainAndAPartialOneEndsTheWakeup() {
        read(SLOTS);
        assertThat(handle.continueReading(UncheckedBooleanSupplier.TRUE_SUPPLIER))
                .isTrue();
        read(3);
        assertThat(handle.continueReading(UncheckedBooleanSupplier.TRUE_SUPPLIER))
                .isFalse();
    }

    @Test
    void theWakeupLimitStillHolds() {
        for (int i = 0; i < 64 / SLOTS; i++) {
            read(SLOTS);
        }
        assertThat(handle.continueReading(UncheckedBooleanSupplier.TRUE_SUPPLIER))
                .isFalse();
    }

    private void read(int datagrams) {
        handle.lastBytesRead(datagrams * 100);
        handle.incMessagesRead(datagrams);
    }
}
