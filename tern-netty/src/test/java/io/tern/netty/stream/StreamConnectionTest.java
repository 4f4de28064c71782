package io.tern.netty.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tern.netty.EventLoopFlush;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link StreamConnection} on an embedded channel: framing across reads, bounds and timeouts, no sockets and no sleeps. */
class StreamConnectionTest {
    private static final StreamSettings SETTINGS = StreamSettings.defaults()
            .withTimeouts(TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(10));

    private final StreamBytes.RecordingHost host = new StreamBytes.RecordingHost();
    private final StreamCounters counters = new StreamCounters();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final StreamConnections connections = new StreamConnections(
            channel.eventLoop(),
            new EventLoopFlush(channel.eventLoop()),
            host,
            new TurnCounters(),
            SETTINGS,
            new ConnectionLimiter(10, 10),
            counters);
    private final StreamConnection connection =
            connections.register(channel, 3, new InetSocketAddress("127.0.0.1", 5000), TransportProtocol.TCP);

    StreamConnectionTest() {
        channel.pipeline().addLast(connection);
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private void receive(byte[] bytes) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length);
        buf.writeBytes(bytes);
        channel.writeInbound(buf);
    }

    @Test
    void mergedMessagesInOneReadAreEachHandedOver() {
        byte[] a = StreamBytes.stun(8, 1);
        byte[] b = StreamBytes.channelData(5, 2);
        byte[] c = StreamBytes.channelData(0, 3);
        receive(StreamBytes.concat(a, b, c));
        assertThat(host.messages).containsExactly(a, b, c);
        assertThat(connection.bufferedBytes()).isZero();
    }

    @Test
    void messageSplitAcrossReadsIsGathered() {
        byte[] a = StreamBytes.stun(100, 1);
        byte[] b = StreamBytes.channelData(7, 2);
        byte[] stream = StreamBytes.concat(a, b);
        receive(Arrays.copyOfRange(stream, 0, 30));
        assertThat(host.messages).isEmpty();
        receive(Arrays.copyOfRange(stream, 30, 122));
        assertThat(host.messages).containsExactly(a);
        receive(Arrays.copyOfRange(stream, 122, stream.length));
        assertThat(host.messages).containsExactly(a, b);
    }

    @Test
    void byteByByte() {
        byte[] a = StreamBytes.channelData(0, 1);
        byte[] b = StreamBytes.channelData(3, 2);
        byte[] c = StreamBytes.stun(4, 3);
        byte[] stream = StreamBytes.concat(a, b, c);
        for (byte x : stream) {
            receive(new byte[] {x});
        }
        assertThat(host.messages).containsExactly(a, b, c);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void heapBuffersAreCopiedToDirectMemory() {
        byte[] a = StreamBytes.stun(4, 1);
        channel.writeInbound(Unpooled.wrappedBuffer(a));
        assertThat(host.messages).containsExactly(a);
    }

    @Test
    void paddingIsPartOfTheChannelDataMessage() {
        byte[] padded = StreamBytes.channelData(5, 9);
        assertThat(padded).hasSize(12);
        byte[] next = StreamBytes.stun(0, 4);
        receive(StreamBytes.concat(padded, next));
        assertThat(host.messages).containsExactly(padded, next);
    }

    @Test
    void largestMessageIsDeliveredAndTheBufferStaysBounded() {
        byte[] big = StreamBytes.stun(0xFFFC, 5);
        for (int i = 0; i < big.length; i += 1000) {
            receive(Arrays.copyOfRange(big, i, Math.min(big.length, i + 1000)));
            assertThat(connection.bufferedBytes()).isLessThanOrEqualTo(StreamFramer.MAX_FRAME_BYTES);
        }
        assertThat(host.messages).containsExactly(big);
        assertThat(connection.bufferedBytes()).isZero();
    }

    @Test
    void garbageClosesTheConnection() {
        receive(StreamBytes.concat(
                StreamBytes.stun(0, 1), "GET / HTTP/1.1\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        // 'G' is 0x47: ChannelData bits, so the framer waits for a 0x4554-byte message
        assertThat(host.messages).hasSize(1);
        receive(new byte[] {(byte) 0xFF});
        assertThat(channel.isOpen()).isTrue();
        EmbeddedChannel other = new EmbeddedChannel();
        StreamConnection second =
                connections.register(other, 3, new InetSocketAddress("127.0.0.1", 5001), TransportProtocol.TCP);
        other.pipeline().addLast(second);
        ByteBuf tls = PooledByteBufAllocator.DEFAULT.directBuffer();
        tls.writeBytes(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0x03, 0x03});
        other.writeInbound(tls);
        assertThat(other.isOpen()).isFalse();
        assertThat(counters.count(StreamEvent.BAD_FRAMING)).isEqualTo(1);
        assertThat(host.closed).isEqualTo(1);
    }

    @Test
    void slowMessageTimesOut() {
        receive(new byte[] {0x00});
        long start = System.nanoTime();
        connections.onTimer(start + TimeUnit.SECONDS.toNanos(5));
        assertThat(channel.isOpen()).isTrue();
        connections.onTimer(start + TimeUnit.SECONDS.toNanos(11));
        assertThat(channel.isOpen()).isFalse();
        assertThat(counters.count(StreamEvent.MESSAGE_TIMEOUT)).isEqualTo(1);
        assertThat(connections.size()).isZero();
    }

    @Test
    void idleConnectionWithoutAllocationTimesOut() {
        long start = System.nanoTime();
        host.allocation = true;
        connections.onTimer(start + TimeUnit.SECONDS.toNanos(31));
        assertThat(channel.isOpen()).isTrue();
        host.allocation = false;
        connections.onTimer(start + TimeUnit.SECONDS.toNanos(20));
        assertThat(channel.isOpen()).isTrue();
        connections.onTimer(start + TimeUnit.SECONDS.toNanos(62));
        assertThat(channel.isOpen()).isFalse();
        assertThat(counters.count(StreamEvent.IDLE_TIMEOUT)).isEqualTo(1);
        assertThat(host.closed).isEqualTo(1);
    }

    @Test
    void sendPadsChannelDataAndLeavesStunAlone() {
        org.agrona.concurrent.UnsafeBuffer out = new org.agrona.concurrent.UnsafeBuffer(new byte[64]);
        byte[] data = {0x40, 0x01, 0, 5, 1, 2, 3, 4, 5};
        out.putBytes(0, data);
        connections.send(connection.connectionId(), out, 0, data.length);
        byte[] stun = StreamBytes.stun(4, 1);
        out.putBytes(20, stun);
        connections.send(connection.connectionId(), out, 20, stun.length);
        channel.runPendingTasks();
        ByteBuf first = channel.readOutbound();
        ByteBuf second = channel.readOutbound();
        try {
            assertThat(io.netty.buffer.ByteBufUtil.getBytes(first))
                    .containsExactly(0x40, 0x01, 0, 5, 1, 2, 3, 4, 5, 0, 0, 0);
            assertThat(io.netty.buffer.ByteBufUtil.getBytes(second)).containsExactly(stun);
        } finally {
            first.release();
            second.release();
        }
    }

    @Test
    void theEndOfEachReadIsReportedOnceWhateverItHeld() {
        byte[] a = StreamBytes.channelData(5, 1);
        byte[] b = StreamBytes.channelData(7, 2);
        receive(StreamBytes.concat(a, b));
        assertThat(host.readsDone).isEqualTo(1);
        receive(Arrays.copyOfRange(a, 0, 3));
        assertThat(host.readsDone).isEqualTo(2);
    }

    @Test
    void flushWrittenFlushesAtOnceAndTheEndOfTheTurnDoesNotFlushAgain() {
        int[] flushes = {0};
        channel.pipeline().addFirst(new io.netty.channel.ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(io.netty.channel.ChannelHandlerContext ctx) {
                flushes[0]++;
                ctx.flush();
            }
        });
        org.agrona.concurrent.UnsafeBuffer out = new org.agrona.concurrent.UnsafeBuffer(new byte[64]);
        byte[] data = {0x40, 0x01, 0, 4, 1, 2, 3, 4};
        out.putBytes(0, data);
        // One message: the embedded channel runs queued tasks (the end-of-turn flush) on its next write.
        connections.send(connection.connectionId(), out, 0, data.length);
        assertThat(flushes[0]).as("held for the end of the turn").isZero();
        connections.flushWritten();
        assertThat(flushes[0]).isEqualTo(1);
        channel.runPendingTasks();
        connections.flushWritten();
        assertThat(flushes[0]).as("nothing new: no second flush").isEqualTo(1);
        ByteBuf sent = channel.readOutbound();
        assertThat(io.netty.buffer.ByteBufUtil.getBytes(sent)).containsExactly(data);
        sent.release();
    }

    @Test
    void aTlsConnectionKeepsTheEndOfTurnFlush() {
        EmbeddedChannel tls = new EmbeddedChannel();
        StreamConnection tlsConnection =
                connections.register(tls, 4, new InetSocketAddress("127.0.0.1", 5001), TransportProtocol.TLS);
        tls.pipeline().addLast(tlsConnection);
        try {
            ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer();
            buf.writeBytes(StreamBytes.channelData(5, 1));
            tls.writeInbound(buf);
            assertThat(host.readsDone)
                    .as("no early flush of the relay socket for TLS")
                    .isZero();
            org.agrona.concurrent.UnsafeBuffer out = new org.agrona.concurrent.UnsafeBuffer(new byte[8]);
            out.putBytes(0, new byte[] {0x40, 0x01, 0, 4, 1, 2, 3, 4});
            connections.send(tlsConnection.connectionId(), out, 0, 8);
            connections.flushWritten();
            assertThat(tls.unsafe().outboundBuffer().totalPendingWriteBytes())
                    .as("still queued for the end of the turn")
                    .isPositive();
        } finally {
            tls.finishAndReleaseAll();
        }
    }
}
