package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;

/** Records everything the engine emits, copying the bytes (the engine reuses its buffers). */
final class RecordingSink implements TurnEngineSink {
    /** A message for a client. {@code buffer} and {@code offset} are kept to check zero-copy paths. */
    record ToClient(
            int listenerId,
            long connectionId,
            TransportAddress client,
            byte[] bytes,
            DirectBuffer buffer,
            int offset) {}

    /** Data for a peer. {@code buffer} and {@code offset} are kept to check zero-copy paths. */
    record ToPeer(int relayId, TransportAddress peer, byte[] bytes, DirectBuffer buffer, int offset) {}

    final List<ToClient> toClient = new ArrayList<>();
    final List<ToPeer> toPeer = new ArrayList<>();

    @Override
    public void sendToClient(
            int listenerId, long connectionId, TransportAddress client, DirectBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        toClient.add(new ToClient(listenerId, connectionId, client.copy(), bytes, buffer, offset));
    }

    @Override
    public void sendToPeer(int relayId, TransportAddress peer, DirectBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        toPeer.add(new ToPeer(relayId, peer.copy(), bytes, buffer, offset));
    }

    List<ToPeer> takePeer() {
        List<ToPeer> taken = new ArrayList<>(toPeer);
        toPeer.clear();
        return taken;
    }

    void clear() {
        toClient.clear();
        toPeer.clear();
    }
}
