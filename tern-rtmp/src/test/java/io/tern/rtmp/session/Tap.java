package io.tern.rtmp.session;

import io.tern.rtmp.RtmpException;
import io.tern.rtmp.amf.Amf0Reader;
import io.tern.rtmp.amf.AmfException;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.bytes.BigEndian;
import io.tern.rtmp.chunk.ChunkReader;
import io.tern.rtmp.chunk.MessageType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Decodes one direction of a connection after its handshake, as a wire capture would. */
final class Tap implements ChunkReader.MessageHandler {
    record Message(int csid, int typeId, int streamId, long timestamp, byte[] payload) {
        /** The AMF0 values of a command or data message. */
        List<AmfValue> values() {
            try {
                return Amf0Reader.readAll(payload, 0, payload.length);
            } catch (AmfException e) {
                throw new AssertionError(e);
            }
        }

        String commandName() {
            return typeId == MessageType.COMMAND_AMF0 && values().get(0) instanceof AmfValue.AmfString s
                    ? s.value()
                    : null;
        }
    }

    private static final int HANDSHAKE_BYTES = 1 + 1536 + 1536;

    final List<Message> messages = new ArrayList<>();
    private final ChunkReader reader = new ChunkReader(0xFFFFFF, 1000, 1L << 30);
    private long seen;

    void bytes(byte[] b) {
        int skip = (int) Math.max(0, Math.min(b.length, HANDSHAKE_BYTES - seen));
        seen += b.length;
        try {
            reader.read(ByteBuffer.wrap(b, skip, b.length - skip), this);
        } catch (RtmpException e) {
            throw new AssertionError("undecodable bytes on the wire", e);
        }
    }

    @Override
    public boolean onMessage(int csid, int typeId, int streamId, long timestamp, byte[] payload, int length) {
        messages.add(new Message(csid, typeId, streamId, timestamp, Arrays.copyOf(payload, length)));
        if (typeId == MessageType.SET_CHUNK_SIZE) {
            reader.setChunkSize((int) BigEndian.u32(payload, 0));
        }
        return true;
    }

    List<String> commandNames() {
        return messages.stream()
                .map(Message::commandName)
                .filter(n -> n != null)
                .toList();
    }

    List<Integer> types() {
        return messages.stream().map(Message::typeId).toList();
    }
}
