package io.tern.netty.nostr;

import io.tern.nostr.engine.NostrConfig;
import io.tern.websocket.engine.BackpressureConfig;
import io.tern.websocket.engine.WebSocketConfig;

/** The WebSocket limits that go with a relay's limits. */
final class NostrWebSocketConfig {
    /** A message buffer larger than this is dropped after its message, so idle connections stay small. */
    static final int RETAINED_MESSAGE_BYTES = 16 * 1024;

    private NostrWebSocketConfig() {}

    /**
     * Messages up to twice {@code max-message-bytes} (at least 64 KiB more) reach the engine, which
     * answers the oversized ones with a NOTICE; larger ones close the connection with 1009. The
     * WebSocket layer's own cap on queued bytes sits above {@code max-outbound-bytes}, so the
     * relay's slow-reader rule (1008, counted) acts first; while more than its high water mark is
     * queued the connection's input is not read.
     */
    static WebSocketConfig of(NostrConfig relay) {
        long message = Math.max(2L * relay.maxMessageBytes(), relay.maxMessageBytes() + 65_536L);
        int maxMessageBytes = (int) Math.min(message, Integer.MAX_VALUE - 64);
        long outbound = relay.maxOutboundBytes();
        int high = (int) Math.min(1 << 20, outbound / 2);
        BackpressureConfig backpressure = new BackpressureConfig(
                high / 4,
                high,
                outbound + 2L * maxMessageBytes,
                BackpressureConfig.defaults().slowReaderTimeoutNs());
        return WebSocketConfig.defaults()
                .withLimits(maxMessageBytes, maxMessageBytes)
                .withRetainBufferBytes(RETAINED_MESSAGE_BYTES)
                .withBackpressure(backpressure);
    }
}
