package io.tern.netty.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tern.netty.EventLoopFlush;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Whatever the bytes and however they are cut into reads, the framer never throws, never answers
 * beyond its bound, and a connection hands over exactly the messages a one-shot framing of the
 * whole stream finds, holding no more than one message meanwhile.
 */
class StreamFramingPropertiesTest {
    @Property(tries = 2000)
    void framerAnswersAreBounded(@ForAll @Size(max = 40) byte[] bytes, @ForAll @IntRange(max = 40) int available) {
        int length = StreamFramer.frameLength(new UnsafeBuffer(bytes), 0, Math.min(available, bytes.length));
        assertThat(length).isBetween(StreamFramer.INVALID, StreamFramer.MAX_FRAME_BYTES);
        if (length > 0) {
            assertThat(length).isGreaterThanOrEqualTo(4);
        }
    }

    @Property(tries = 200)
    void anyChunkingOfValidMessagesYieldsTheSameMessages(
            @ForAll("messages") List<byte[]> messages, @ForAll("cuts") List<Integer> cuts) {
        byte[] stream = StreamBytes.concat(messages.toArray(new byte[0][]));
        assertThat(feed(stream, cuts)).containsExactlyElementsOf(messages);
    }

    @Property(tries = 300)
    void arbitraryBytesNeverBreakTheConnection(
            @ForAll @Size(max = 300) byte[] prefix,
            @ForAll("messages") List<byte[]> messages,
            @ForAll("cuts") List<Integer> cuts) {
        byte[] stream = StreamBytes.concat(StreamBytes.concat(messages.toArray(new byte[0][])), prefix);
        List<byte[]> expected = StreamBytes.referenceFrames(stream);
        assertThat(feed(stream, cuts)).containsExactlyElementsOf(expected);
    }

    private static List<byte[]> feed(byte[] stream, List<Integer> cuts) {
        StreamBytes.RecordingHost host = new StreamBytes.RecordingHost();
        EmbeddedChannel channel = new EmbeddedChannel();
        StreamConnections connections = new StreamConnections(
                channel.eventLoop(),
                new EventLoopFlush(channel.eventLoop()),
                host,
                new TurnCounters(),
                StreamSettings.defaults(),
                new ConnectionLimiter(1, 1),
                new StreamCounters());
        StreamConnection connection =
                connections.register(channel, 0, new InetSocketAddress("127.0.0.1", 1), TransportProtocol.TCP);
        channel.pipeline().addLast(connection);
        int position = 0;
        int cut = 0;
        while (position < stream.length && channel.isOpen()) {
            int chunk =
                    Math.min(stream.length - position, cuts.isEmpty() ? stream.length : cuts.get(cut++ % cuts.size()));
            ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(chunk);
            buf.writeBytes(stream, position, chunk);
            channel.writeInbound(buf);
            position += chunk;
            assertThat(connection.bufferedBytes()).isLessThanOrEqualTo(StreamFramer.MAX_FRAME_BYTES);
        }
        channel.finishAndReleaseAll();
        return new ArrayList<>(host.messages);
    }

    @Provide
    Arbitrary<List<byte[]>> messages() {
        Arbitrary<byte[]> stun = Combinators.combine(Arbitraries.integers().between(0, 60), Arbitraries.integers())
                .as((words, seed) -> StreamBytes.stun(words * 4, seed));
        Arbitrary<byte[]> channelData = Combinators.combine(
                        Arbitraries.integers().between(0, 300), Arbitraries.integers())
                .as(StreamBytes::channelData);
        return Arbitraries.oneOf(stun, channelData).list().ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<Integer>> cuts() {
        return Arbitraries.integers().between(1, 400).list().ofMinSize(1).ofMaxSize(10);
    }
}
