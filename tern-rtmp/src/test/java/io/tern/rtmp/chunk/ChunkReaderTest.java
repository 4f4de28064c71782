package io.tern.rtmp.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.rtmp.CloseReason;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.chunk.Messages.Message;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chunk reader against hand-built chunk sequences (RTMP specification 1.0, §5.3). */
class ChunkReaderTest {
    private static final int[] SPLITS = {1, 2, 3, 5, 7, 13, 64, 100_000};

    private static ChunkReader reader() {
        return new ChunkReader(1 << 20, 16, 4 << 20);
    }

    /** Reads {@code bytes} whole and in every split size; all must agree. */
    private static List<Message> read(byte[] bytes) throws RtmpException {
        List<Message> whole = Messages.read(reader(), bytes, bytes.length);
        for (int split : SPLITS) {
            assertThat(Messages.read(reader(), bytes, split))
                    .as("split %d", split)
                    .isEqualTo(whole);
        }
        return whole;
    }

    @Test
    void specificationExampleOneAudioUsesTypes0_2_3() throws RtmpException {
        // §5.3.2.1: four 32-byte audio messages 20 ms apart on message stream 12345.
        byte[] bytes = new RawChunks()
                .type0(3, 1000, 32, MessageType.AUDIO, 12345)
                .payload(32, 1)
                .type2(3, 20)
                .payload(32, 2)
                .type3(3)
                .payload(32, 3)
                .type3(3)
                .payload(32, 4)
                .bytes();

        List<Message> messages = read(bytes);

        assertThat(messages).extracting(Message::timestamp).containsExactly(1000L, 1020L, 1040L, 1060L);
        assertThat(messages).allSatisfy(m -> {
            assertThat(m.streamId()).isEqualTo(12345);
            assertThat(m.typeId()).isEqualTo(MessageType.AUDIO);
            assertThat(m.payload()).hasSize(32);
        });
        assertThat(messages.get(3).payload()[0]).isEqualTo((byte) 4);
    }

    @Test
    void specificationExampleTwoVideoIsSplitIntoType3Continuations() throws RtmpException {
        // §5.3.2.2: one 307-byte message in chunks of 128, 128 and 51 bytes.
        byte[] bytes = new RawChunks()
                .type0(4, 1000, 307, MessageType.VIDEO, 12346)
                .payload(128, 7)
                .type3(4)
                .payload(128, 8)
                .type3(4)
                .payload(51, 9)
                .bytes();

        List<Message> messages = read(bytes);

        assertThat(messages).hasSize(1);
        byte[] payload = messages.get(0).payload();
        assertThat(payload).hasSize(307);
        assertThat(payload[0]).isEqualTo((byte) 7);
        assertThat(payload[128]).isEqualTo((byte) 8);
        assertThat(payload[306]).isEqualTo((byte) 9);
    }

    @Test
    void type1ChangesLengthAndTypeAndAddsItsDelta() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(6, 100, 10, MessageType.VIDEO, 1)
                .payload(10, 1)
                .type1(6, 33, 20, MessageType.AUDIO)
                .payload(20, 2)
                .bytes();

        List<Message> messages = read(bytes);

        assertThat(messages.get(1)).isEqualTo(new Message(6, MessageType.AUDIO, 1, 133, filled(20, 2)));
    }

    @Test
    void extendedTimestampsAreRepeatedInType3Continuations() throws RtmpException {
        long ts = 0x01000000L;
        byte[] bytes = new RawChunks()
                .type0(6, ts, 300, MessageType.VIDEO, 1)
                .payload(128, 1)
                .type3(6)
                .u32(ts)
                .payload(128, 2)
                .type3(6)
                .u32(ts)
                .payload(44, 3)
                .bytes();

        List<Message> messages = read(bytes);

        assertThat(messages).hasSize(1);
        assertThat(messages.get(0).timestamp()).isEqualTo(ts);
        assertThat(messages.get(0).payload()[299]).isEqualTo((byte) 3);
    }

    @Test
    void anExtendedDeltaCarriesIntoType3NewMessages() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(5, 10, 4, MessageType.DATA_AMF0, 1)
                .payload(4, 1)
                .type2(5, 0x1000000)
                .payload(4, 2)
                .type3(5)
                .u32(0x1000000)
                .payload(4, 3)
                .bytes();

        assertThat(read(bytes)).extracting(Message::timestamp).containsExactly(10L, 0x1000000L + 10, 0x2000000L + 10);
    }

    @Test
    void aType3NewMessageAfterType0AddsTheAbsoluteTimestampAsFfmpegReadsIt() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(4, 40, 4, MessageType.AUDIO, 1)
                .payload(4, 1)
                .type3(4)
                .payload(4, 2)
                .bytes();

        assertThat(read(bytes)).extracting(Message::timestamp).containsExactly(40L, 80L);
    }

    @Test
    void timestampsWrapModulo2To32() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(4, 0xFFFFFFF0L, 1, MessageType.AUDIO, 1)
                .payload(1, 1)
                .type2(4, 0x20)
                .payload(1, 2)
                .bytes();

        assertThat(read(bytes)).extracting(Message::timestamp).containsExactly(0xFFFFFFF0L, 0x10L);
    }

    @Test
    void twoAndThreeByteChunkStreamIdsAreRead() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(64, 1, 1, MessageType.AUDIO, 1)
                .payload(1, 1)
                .type0(319, 2, 1, MessageType.AUDIO, 1)
                .payload(1, 2)
                .type0(320, 3, 1, MessageType.AUDIO, 1)
                .payload(1, 3)
                .type0(65599, 4, 1, MessageType.AUDIO, 1)
                .payload(1, 4)
                .bytes();

        assertThat(read(bytes)).extracting(Message::csid).containsExactly(64, 319, 320, 65599);
    }

    @Test
    void chunkStreamsInterleave() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(6, 0, 200, MessageType.VIDEO, 1)
                .payload(128, 1)
                .type0(4, 5, 10, MessageType.AUDIO, 1)
                .payload(10, 2)
                .type3(6)
                .payload(72, 3)
                .bytes();

        List<Message> messages = read(bytes);

        assertThat(messages).extracting(Message::csid).containsExactly(4, 6);
        assertThat(messages.get(1).payload()[199]).isEqualTo((byte) 3);
    }

    @Test
    void aZeroLengthMessageIsCompleteWithItsHeader() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(3, 0, 0, MessageType.COMMAND_AMF0, 0)
                .type0(3, 0, 1, MessageType.COMMAND_AMF0, 0)
                .payload(1, 5)
                .bytes();

        assertThat(read(bytes)).extracting(m -> m.payload().length).containsExactly(0, 1);
    }

    @Test
    void setChunkSizeAppliesFromTheNextChunk() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(2, 0, 4, MessageType.SET_CHUNK_SIZE, 0)
                .u32(4096)
                .type0(6, 0, 4000, MessageType.VIDEO, 1)
                .payload(4000, 6)
                .bytes();

        List<Message> messages = read(bytes);

        assertThat(messages).hasSize(2);
        assertThat(messages.get(1).payload()).hasSize(4000);
    }

    @Test
    void abortDropsThePartialMessage() throws RtmpException {
        ChunkReader reader = reader();
        Messages messages = new Messages();
        reader.read(
                ByteBuffer.wrap(new RawChunks()
                        .type0(6, 0, 300, MessageType.VIDEO, 1)
                        .payload(128, 1)
                        .bytes()),
                messages);
        assertThat(reader.midMessage()).isTrue();

        reader.abort(6);
        reader.read(
                ByteBuffer.wrap(new RawChunks()
                        .type0(6, 0, 2, MessageType.VIDEO, 1)
                        .payload(2, 2)
                        .bytes()),
                messages);

        assertThat(messages.received).containsExactly(new Message(6, MessageType.VIDEO, 1, 0, filled(2, 2)));
        assertThat(reader.midMessage()).isFalse();
    }

    @Test
    void aNewHeaderAbandonsAnIncompleteMessage() throws RtmpException {
        byte[] bytes = new RawChunks()
                .type0(6, 0, 300, MessageType.VIDEO, 1)
                .payload(128, 1)
                .type0(6, 40, 3, MessageType.VIDEO, 1)
                .payload(3, 2)
                .bytes();

        assertThat(read(bytes)).containsExactly(new Message(6, MessageType.VIDEO, 1, 40, filled(3, 2)));
    }

    @Test
    void theHeaderTypesAreCounted() throws RtmpException {
        ChunkReader reader = reader();
        Messages.read(
                reader,
                new RawChunks()
                        .type0(3, 1000, 1, MessageType.AUDIO, 1)
                        .payload(1, 1)
                        .type1(3, 1, 2, MessageType.AUDIO)
                        .payload(2, 1)
                        .type2(3, 2)
                        .payload(2, 1)
                        .type3(3)
                        .payload(2, 1)
                        .bytes(),
                3);

        assertThat(new long[] {reader.chunks(0), reader.chunks(1), reader.chunks(2), reader.chunks(3)})
                .containsExactly(1, 1, 1, 1);
        assertThat(reader.messages()).isEqualTo(4);
    }

    @Test
    void aMessageOverTheLimitEndsTheSession() {
        byte[] bytes =
                new RawChunks().type0(6, 0, (1 << 20) + 1, MessageType.VIDEO, 1).bytes();
        assertThatThrownBy(() -> Messages.read(reader(), bytes, bytes.length))
                .isInstanceOfSatisfying(
                        RtmpException.class, e -> assertThat(e.reason()).isEqualTo(CloseReason.LIMIT_EXCEEDED))
                .hasMessageContaining("message of 1048577 bytes on chunk stream 6 exceeds the limit of 1048576");
    }

    @Test
    void tooManyChunkStreamsEndTheSession() {
        RawChunks chunks = new RawChunks();
        for (int csid = 3; csid < 3 + 17; csid++) {
            chunks.type0(csid, 0, 1, MessageType.AUDIO, 1).payload(1, 0);
        }
        byte[] bytes = chunks.bytes();
        assertThatThrownBy(() -> Messages.read(reader(), bytes, bytes.length))
                .isInstanceOf(RtmpException.class)
                .hasMessageContaining("more than the limit of 16");
    }

    @Test
    void incompleteMessagesCannotHoldMoreThanTheBufferLimit() {
        // Five chunk streams each send all but the last byte of a 1 MiB message: the fifth pushes past 4 MiB.
        ChunkReader reader = new ChunkReader(1 << 20, 16, 4 << 20);
        reader.setChunkSize((1 << 20) - 1);
        RawChunks chunks = new RawChunks();
        for (int csid = 3; csid < 8; csid++) {
            chunks.type0(csid, 0, 1 << 20, MessageType.VIDEO, 1).payload((1 << 20) - 1, 0);
        }
        byte[] bytes = chunks.bytes();
        assertThatThrownBy(() -> Messages.read(reader, bytes, 65536))
                .isInstanceOfSatisfying(
                        RtmpException.class, e -> assertThat(e.reason()).isEqualTo(CloseReason.LIMIT_EXCEEDED))
                .hasMessageContaining("incomplete messages would hold");
        assertThat(reader.bufferedBytes()).isLessThanOrEqualTo(4 << 20);
    }

    @Test
    void aDeclaredLengthAllocatesNothingUntilBytesArrive() throws RtmpException {
        ChunkReader reader = reader();
        reader.read(
                ByteBuffer.wrap(new RawChunks()
                        .type0(6, 0, 1 << 20, MessageType.VIDEO, 1)
                        .payload(10, 0)
                        .bytes()),
                new Messages());
        assertThat(reader.bufferedBytes()).isLessThan(1024);
    }

    @Test
    void aType1OrType3HeaderOnAnUnknownChunkStreamIsAProtocolError() {
        for (byte[] bytes : List.of(
                new RawChunks().type1(9, 0, 1, MessageType.AUDIO).bytes(),
                new RawChunks().type3(9).bytes())) {
            assertThatThrownBy(() -> Messages.read(reader(), bytes, bytes.length))
                    .isInstanceOfSatisfying(
                            RtmpException.class, e -> assertThat(e.reason()).isEqualTo(CloseReason.PROTOCOL_ERROR))
                    .hasMessageContaining("which has no type 0 header yet");
        }
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }
}
