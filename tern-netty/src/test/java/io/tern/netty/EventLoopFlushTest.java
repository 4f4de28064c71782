package io.tern.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The per-event-loop flush, as the relay and the WebSocket adapter use it: writes made while the
 * loop handles its reads are flushed once, after them, unless a channel collects 64 messages or
 * goes over its high water mark first.
 */
class EventLoopFlushTest {
    /** On each read of an Integer n, writes n messages of the given size through the flush. */
    private static final class Writer extends ChannelDuplexHandler {
        final int messageBytes;
        EventLoopFlush flush;
        EventLoopFlush.Slot slot;
        int flushes;
        final List<Integer> flushesAfterEachRead = new ArrayList<>();
        final List<Boolean> writableAfterEachRead = new ArrayList<>();

        Writer(int messageBytes) {
            this.messageBytes = messageBytes;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            flush = new EventLoopFlush(ctx.channel().eventLoop());
            slot = new EventLoopFlush.Slot(ctx.channel());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            for (int i = 0; i < (Integer) msg; i++) {
                flush.write(slot, Unpooled.wrappedBuffer(new byte[messageBytes]));
            }
            writableAfterEachRead.add(flush.writable(slot));
            flushesAfterEachRead.add(flushes);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
        }
    }

    private EmbeddedChannel channel;

    private Writer open(int messageBytes) {
        Writer writer = new Writer(messageBytes);
        channel = new EmbeddedChannel(writer);
        writer.flushes = 0;
        return writer;
    }

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    private int outbound() {
        int messages = 0;
        for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
            buf.release();
            messages++;
        }
        return messages;
    }

    @Test
    void everyWriteOfATurnsReadsLeavesInOneFlushAfterThem() {
        Writer writer = open(10);
        channel.writeInbound(3, 4, 5);
        assertThat(writer.flushesAfterEachRead)
                .as("nothing flushed during the reads")
                .containsExactly(0, 0, 0);
        assertThat(writer.flushes).as("one flush once the reads are done").isEqualTo(1);
        assertThat(outbound()).isEqualTo(12);
    }

    @Test
    void aChannelIsFlushedEarlyAfter64Messages() {
        Writer writer = open(1);
        channel.writeInbound(63, 1, 10);
        assertThat(writer.flushesAfterEachRead).containsExactly(0, 1, 1);
        assertThat(writer.flushes).isEqualTo(2);
        assertThat(outbound()).isEqualTo(74);
    }

    @Test
    void aChannelOverItsHighWaterMarkIsFlushedBeforeItIsJudgedUnwritable() {
        Writer writer = open(300);
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(100, 200));
        channel.writeInbound(1);
        assertThat(writer.flushesAfterEachRead).as("flushed at once").containsExactly(1);
        assertThat(writer.writableAfterEachRead)
                .as("an embedded channel takes everything once flushed")
                .containsExactly(true);
    }

    @Test
    void theSharedFlushBelongsToTheLoopItIsAskedOn() throws Exception {
        channel = new EmbeddedChannel();
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            assertThatIllegalStateException().isThrownBy(() -> EventLoopFlush.of(loop));
            CompletableFuture<Boolean> same = new CompletableFuture<>();
            loop.execute(() -> same.complete(EventLoopFlush.of(loop) == EventLoopFlush.of(loop)));
            assertThat(same.get(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
