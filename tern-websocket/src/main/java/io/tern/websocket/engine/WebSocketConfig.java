package io.tern.websocket.engine;

import io.tern.websocket.deflate.PerMessageDeflateConfig;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Limits and options of one {@link WebSocketEngine}. Every buffer the engine holds is bounded by one
 * of these numbers.
 *
 * @param maxFrameBytes largest frame payload accepted; larger closes with 1009
 * @param maxMessageBytes largest (decompressed) message accepted; larger closes with 1009
 * @param maxHandshakeBytes largest HTTP head accepted during the opening handshake
 * @param handshakeTimeoutNs time allowed for the opening handshake to complete
 * @param closeTimeoutNs time allowed for the peer to answer our Close frame
 * @param autoFragmentBytes split outgoing messages into frames of at most this payload; 0 sends one frame
 * @param retainBufferBytes message buffers larger than this are dropped after each message
 * @param deflate permessage-deflate negotiation, or null to neither offer nor accept it
 * @param subprotocols supported subprotocols in preference order (server) or offered (client)
 */
public record WebSocketConfig(
        int maxFrameBytes,
        int maxMessageBytes,
        int maxHandshakeBytes,
        long handshakeTimeoutNs,
        long closeTimeoutNs,
        int autoFragmentBytes,
        int retainBufferBytes,
        PerMessageDeflateConfig deflate,
        List<String> subprotocols) {

    /** Keeps {@code limit + 1} representable, which the inflater uses to prove an overflow. */
    private static final int MAX_LIMIT_BYTES = Integer.MAX_VALUE - 64;

    public WebSocketConfig {
        if (maxFrameBytes <= 0
                || maxFrameBytes > MAX_LIMIT_BYTES
                || maxMessageBytes <= 0
                || maxMessageBytes > MAX_LIMIT_BYTES) {
            throw new IllegalArgumentException("limits must be in 1.." + MAX_LIMIT_BYTES);
        }
        subprotocols = List.copyOf(subprotocols);
    }

    public static WebSocketConfig defaults() {
        return new WebSocketConfig(
                1 << 20,
                1 << 20,
                8192,
                TimeUnit.SECONDS.toNanos(10),
                TimeUnit.SECONDS.toNanos(5),
                0,
                64 * 1024,
                null,
                List.of());
    }

    public WebSocketConfig withLimits(int maxFrameBytes, int maxMessageBytes) {
        return new WebSocketConfig(
                maxFrameBytes,
                maxMessageBytes,
                maxHandshakeBytes,
                handshakeTimeoutNs,
                closeTimeoutNs,
                autoFragmentBytes,
                retainBufferBytes,
                deflate,
                subprotocols);
    }

    public WebSocketConfig withDeflate(PerMessageDeflateConfig deflate) {
        return new WebSocketConfig(
                maxFrameBytes,
                maxMessageBytes,
                maxHandshakeBytes,
                handshakeTimeoutNs,
                closeTimeoutNs,
                autoFragmentBytes,
                retainBufferBytes,
                deflate,
                subprotocols);
    }

    public WebSocketConfig withAutoFragmentBytes(int autoFragmentBytes) {
        return new WebSocketConfig(
                maxFrameBytes,
                maxMessageBytes,
                maxHandshakeBytes,
                handshakeTimeoutNs,
                closeTimeoutNs,
                autoFragmentBytes,
                retainBufferBytes,
                deflate,
                subprotocols);
    }

    public WebSocketConfig withTimeouts(long handshakeTimeoutNs, long closeTimeoutNs) {
        return new WebSocketConfig(
                maxFrameBytes,
                maxMessageBytes,
                maxHandshakeBytes,
                handshakeTimeoutNs,
                closeTimeoutNs,
                autoFragmentBytes,
                retainBufferBytes,
                deflate,
                subprotocols);
    }

    public WebSocketConfig withSubprotocols(List<String> subprotocols) {
        return new WebSocketConfig(
                maxFrameBytes,
                maxMessageBytes,
                maxHandshakeBytes,
                handshakeTimeoutNs,
                closeTimeoutNs,
                autoFragmentBytes,
                retainBufferBytes,
                deflate,
                subprotocols);
    }
}
