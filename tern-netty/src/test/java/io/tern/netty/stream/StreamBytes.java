package io.tern.netty.stream;

import io.netty.buffer.ByteBuf;
import io.tern.stun.address.TransportAddress;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/** Messages as they appear on a TURN stream, and a host that records what a connection hands over. */
final class StreamBytes {
    private StreamBytes() {}

    /** A STUN Binding request with {@code bodyBytes} of body (a multiple of 4). */
    static byte[] stun(int bodyBytes, int seed) {
        ByteBuffer b = ByteBuffer.allocate(20 + bodyBytes);
        b.putShort((short) 0x0001).putShort((short) bodyBytes).putInt(0x2112A442);
        for (int i = 0; i < 12 + bodyBytes; i++) {
            b.put((byte) (seed + i));
        }
        return b.array();
    }

    /** ChannelData on channel 0x4001 with {@code dataBytes} of data, padded to 4 as on a stream. */
    static byte[] channelData(int dataBytes, int seed) {
        ByteBuffer b = ByteBuffer.allocate((4 + dataBytes + 3) & ~3);
        b.putShort((short) 0x4001).putShort((short) dataBytes);
        for (int i = 0; i < dataBytes; i++) {
            b.put((byte) (seed + i));
        }
        return b.array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** The messages a correct framer cuts {@code stream} into, up to the first invalid or incomplete one. */
    static List<byte[]> referenceFrames(byte[] stream) {
        List<byte[]> frames = new ArrayList<>();
        UnsafeBuffer buffer = new UnsafeBuffer(stream);
        int position = 0;
        while (position < stream.length) {
            int length = StreamFramer.frameLength(buffer, position, stream.length - position);
            if (length <= 0 || length > stream.length - position) {
                break;
            }
            frames.add(java.util.Arrays.copyOfRange(stream, position, position + length));
            position += length;
        }
        return frames;
    }

    static final class RecordingHost implements StreamHost {
        final List<byte[]> messages = new ArrayList<>();
        int closed;
        int readsDone;
        boolean allocation;

        @Override
        public void onStreamReadDone() {
            readsDone++;
        }

        @Override
        public void onStreamMessage(
                int listenerId, long connectionId, TransportAddress client, ByteBuf buffer, int index, int length) {
            byte[] copy = new byte[length];
            buffer.getBytes(index, copy);
            messages.add(copy);
        }

        @Override
        public void onStreamClosed(int listenerId, long connectionId, TransportAddress client) {
            closed++;
        }

        @Override
        public void handOver(
                int targetShard,
                io.netty.channel.Channel channel,
                int listenerId,
                io.tern.turn.engine.TransportProtocol protocol,
                java.net.InetSocketAddress remote,
                ByteBuf replay) {
            replay.release();
            channel.close();
        }

        @Override
        public long nowNs() {
            return System.nanoTime();
        }

        @Override
        public boolean hasAllocation(int listenerId, long connectionId, TransportAddress client) {
            return allocation;
        }
    }
}
