package io.tern.rtmp.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.rtmp.RtmpException;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.Messages.Message;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Writer and reader agree on every message sequence; the reader survives any input. */
class ChunkPropertiesTest {
    @Property(tries = 400)
    void whatTheWriterWritesTheReaderReadsInAnySplit(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int messageCount) throws RtmpException {
        Random random = new Random(seed);
        ChunkWriter writer = new ChunkWriter();
        ByteWriter out = new ByteWriter(1024);
        List<Message> sent = new ArrayList<>();
        long[] clocks = new long[4];
        for (int i = 0; i < messageCount; i++) {
            if (random.nextInt(8) == 0) {
                int chunkSize = 1 + random.nextInt(random.nextBoolean() ? 300 : 70_000);
                byte[] value = new byte[4];
                ByteWriter v = new ByteWriter(4);
                v.u32(chunkSize);
                System.arraycopy(v.array(), 0, value, 0, 4);
                writer.write(out, 2, MessageType.SET_CHUNK_SIZE, 0, 0, value, 0, 4);
                sent.add(new Message(2, MessageType.SET_CHUNK_SIZE, 0, 0, value));
                writer.setChunkSize(chunkSize);
                continue;
            }
            int track = random.nextInt(4);
            int csid = new int[] {4, 6, 70, 400}[track];
            // Mostly regular steps (types 2 and 3), sometimes a jump, a step back or an extended timestamp.
            int step = switch (random.nextInt(10)) {
                case 0 -> -random.nextInt(100);
                case 1 -> 0x1000000 + random.nextInt(100);
                default -> 20;
            };
            clocks[track] = Math.max(0, clocks[track] + step);
            int length = random.nextInt(6) == 0 ? random.nextInt(5000) : 32;
            byte[] payload = new byte[length];
            random.nextBytes(payload);
            int typeId = random.nextBoolean() ? MessageType.AUDIO : MessageType.VIDEO;
            int streamId = random.nextInt(20) == 0 ? 2 : 1;
            writer.write(out, csid, typeId, streamId, clocks[track], payload, 0, length);
            sent.add(new Message(csid, typeId, streamId, clocks[track] & 0xFFFFFFFFL, payload));
        }
        byte[] bytes = Arrays.copyOf(out.array(), out.length());

        ChunkReader reader = new ChunkReader(1 << 20, 64, 16 << 20);
        Messages messages = new Messages();
        messages.reader = reader;
        for (int at = 0; at < bytes.length; ) {
            int n = Math.min(bytes.length - at, 1 + random.nextInt(random.nextBoolean() ? 8 : 3000));
            reader.read(ByteBuffer.wrap(bytes, at, n), messages);
            at += n;
        }

        assertThat(messages.received).isEqualTo(sent);
        assertThat(reader.midMessage()).isFalse();
    }

    @Property(tries = 3000)
    void arbitraryBytesEndInMessagesOrAnRtmpException(
            @ForAll byte[] input, @ForAll @IntRange(min = 1, max = 64) int split) {
        ChunkReader reader = new ChunkReader(64 * 1024, 8, 256 * 1024);
        Messages messages = new Messages();
        messages.reader = reader;
        try {
            for (int at = 0; at < input.length; at += split) {
                reader.read(ByteBuffer.wrap(input, at, Math.min(split, input.length - at)), messages);
            }
        } catch (RtmpException expected) {
            assertThat(expected.getMessage()).isNotBlank();
            assertThat(expected.reason()).isNotNull();
        } catch (IllegalArgumentException chunkSizeFromTheHandler) {
            // Messages applies Set Chunk Size without the session's bound check.
            assertThat(chunkSizeFromTheHandler.getMessage()).startsWith("chunk size");
        }
        assertThat(reader.bufferedBytes()).isLessThanOrEqualTo(256 * 1024);
        assertThat(messages.received.size()).isLessThanOrEqualTo(input.length);
    }
}
