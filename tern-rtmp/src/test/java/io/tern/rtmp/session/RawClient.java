package io.tern.rtmp.session;

import io.tern.rtmp.RtmpException;
import io.tern.rtmp.amf.Amf0Writer;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.ChunkWriter;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.handshake.ClientHandshake;
import io.tern.rtmp.handshake.HandshakeScheme;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/** A hand-driven client for bad-input tests: a real handshake, then whatever messages the test writes. */
final class RawClient {
    final RtmpServerSession server;
    final ChunkWriter writer = new ChunkWriter();
    long nowNs = 5_000_000_000L;

    RawClient(RtmpSettings settings) {
        server = new RtmpServerSession(settings, new SplittableRandom(11), nowNs);
    }

    /** C0 C1, then C2 once the server answered. */
    RawClient handshake() throws RtmpException {
        ClientHandshake handshake = new ClientHandshake(HandshakeScheme.PLAIN);
        ByteWriter c0c1 = new ByteWriter(1537);
        handshake.start(c0c1, new SplittableRandom(12));
        byte[][] answer = new byte[1][];
        send(Arrays.copyOf(c0c1.array(), c0c1.length()));
        server.drainWrites((b, off, len) -> answer[0] = Arrays.copyOfRange(b, off, off + len));
        ByteWriter c2 = new ByteWriter(1536);
        handshake.consume(ByteBuffer.wrap(answer[0]), c2, new SplittableRandom(13));
        send(Arrays.copyOf(c2.array(), c2.length()));
        return this;
    }

    RawClient send(byte[] bytes) {
        server.onBytes(ByteBuffer.wrap(bytes), nowNs);
        return this;
    }

    RawClient message(int csid, int typeId, int streamId, long timestamp, byte[] payload) {
        ByteWriter out = new ByteWriter(payload.length + 32);
        writer.write(out, csid, typeId, streamId, timestamp, payload, 0, payload.length);
        return send(Arrays.copyOf(out.array(), out.length()));
    }

    RawClient command(int streamId, String name, double tid, AmfValue... values) {
        ByteWriter body = new ByteWriter(128);
        Amf0Writer.string(body, name);
        Amf0Writer.number(body, tid);
        for (AmfValue v : values) {
            Amf0Writer.write(body, v);
        }
        return message(3, MessageType.COMMAND_AMF0, streamId, 0, Arrays.copyOf(body.array(), body.length()));
    }

    RawClient control(int typeId, long value) {
        ByteWriter body = new ByteWriter(4);
        body.u32(value);
        return message(2, typeId, 0, 0, Arrays.copyOf(body.array(), 4));
    }

    RawClient advance(long ns) {
        nowNs += ns;
        server.onTimeout(nowNs);
        return this;
    }

    /** Every event so far. */
    List<RtmpEvent> events() {
        List<RtmpEvent> events = new ArrayList<>();
        for (RtmpEvent e; (e = server.pollEvent()) != null; ) {
            events.add(e);
        }
        return events;
    }
}
