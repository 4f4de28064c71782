package io.tern.netty.srt;

import io.tern.srt.SrtEvent;
import io.tern.srt.SrtStats;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;

/**
 * What the SRT listener tells the server, on the listener's event loop thread. Payload arrays are
 * the engine's pooled buffers: valid only during the call.
 */
public interface SrtIngestListener {
    /** A caller asks to publish: answer the request (once, from any thread, now or later). */
    void onPublishRequested(SrtPublishRequest request);

    void onConnected(long sessionId, StreamId streamId, InetSocketAddress peer, int latencyMs, int keyLength);

    /** A caller was refused with libsrt's code (it was told the same code). */
    void onRejected(InetSocketAddress peer, int code, String streamId);

    /** One delivered SRT payload (MPEG-TS: usually 7 packets of 188 bytes). */
    void onPayload(long sessionId, byte[] data, int length);

    /** The session ended; {@code stats} are its final counters (loss, retransmissions, drops, RTT). */
    void onClosed(long sessionId, SrtEvent.CloseReason reason, SrtStats stats);
}
