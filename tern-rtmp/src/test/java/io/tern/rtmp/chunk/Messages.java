package io.tern.rtmp.chunk;

import io.tern.rtmp.RtmpException;
import io.tern.rtmp.bytes.BigEndian;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Collects what a ChunkReader delivers. */
final class Messages implements ChunkReader.MessageHandler {
    record Message(int csid, int typeId, int streamId, long timestamp, byte[] payload) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Message m
                    && m.csid == csid
                    && m.typeId == typeId
                    && m.streamId == streamId
                    && m.timestamp == timestamp
                    && Arrays.equals(m.payload, payload);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(payload) * 31 + (int) timestamp;
        }

        @Override
        public String toString() {
            return "csid " + csid + " type " + typeId + " stream " + streamId + " ts " + timestamp + " "
                    + payload.length + " B";
        }
    }

    final List<Message> received = new ArrayList<>();
    /** Applies Set Chunk Size messages to this reader, as a session does. */
    ChunkReader reader;

    @Override
    public boolean onMessage(int csid, int typeId, int streamId, long timestamp, byte[] payload, int length) {
        received.add(new Message(csid, typeId, streamId, timestamp, Arrays.copyOf(payload, length)));
        if (typeId == MessageType.SET_CHUNK_SIZE && reader != null) {
            reader.setChunkSize((int) BigEndian.u32(payload, 0));
        }
        return true;
    }

    /** Reads {@code bytes} in pieces of {@code split} bytes. */
    static List<Message> read(ChunkReader reader, byte[] bytes, int split) throws RtmpException {
        Messages messages = new Messages();
        messages.reader = reader;
        for (int at = 0; at < bytes.length; at += split) {
            reader.read(ByteBuffer.wrap(bytes, at, Math.min(split, bytes.length - at)), messages);
        }
        return messages.received;
    }
}
