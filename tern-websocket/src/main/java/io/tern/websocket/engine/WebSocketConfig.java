package io.tern.websocket.engine;

import io.tern.websocket.deflate.PerMessageDeflateConfig;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Limits and options of one {@link WebSocketEngine}. Every buffer the engine holds, and every byte
 * the transport may queue for its peer, is bounded by one of these numbers.
 *
 * @param maxFrameBytes largest frame payload accepted; larger closes with 1009
 * @param maxMessageBytes largest (decompressed) message accepted; larger closes with 1009
 * @param maxHandshakeBytes largest HTTP head accepted during the opening handshake
 * @param handshakeTimeoutNs time allowed for the opening handshake to complete
 * @param closeTimeoutNs time allowed for the peer to answer our Close frame
 * @param closeLingerNs once closed, how long the transport waits for the peer to close its side
 * @param autoFragmentBytes split outgoing messages into frames of at most this payload; 0 sends one frame
 * @param retainBufferBytes message buffers larger than this are dropped after each message
 * @param deflate permessage-deflate negotiation, or null to neither offer nor accept it
 * @param subprotocols supported subprotocols in preference order (server) or offered (client)
 * @param backpressure what the transport may queue for a peer that reads slowly
 */
public record WebSocketConfig(
        int maxFrameBytes,
        int maxMessageBytes,
        int maxHandshakeBytes,
        long handshakeTimeoutNs,
        long closeTimeoutNs,
        long closeLingerNs,
        int autoFragmentBytes,
        int retainBufferBytes,
        PerMessageDeflateConfig deflate,
        List<String> subprotocols,
        BackpressureConfig backpressure) {

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
                TimeUnit.SECONDS.toNanos(2),
                0,
                64 * 1024,
                null,
                List.of(),
                BackpressureConfig.defaults());
    }

    public WebSocketConfig withLimits(int maxFrameBytes, int maxMessageBytes) {
        Copy copy = new Copy(this);
        copy.maxFrameBytes = maxFrameBytes;
        copy.maxMessageBytes = maxMessageBytes;
        return copy.build();
    }

    public WebSocketConfig withDeflate(PerMessageDeflateConfig deflate) {
        Copy copy = new Copy(this);
        copy.deflate = deflate;
        return copy.build();
    }

    public WebSocketConfig withAutoFragmentBytes(int autoFragmentBytes) {
        Copy copy = new Copy(this);
        copy.autoFragmentBytes = autoFragmentBytes;
        return copy.build();
    }

    public WebSocketConfig withTimeouts(long handshakeTimeoutNs, long closeTimeoutNs, long closeLingerNs) {
        Copy copy = new Copy(this);
        copy.handshakeTimeoutNs = handshakeTimeoutNs;
        copy.closeTimeoutNs = closeTimeoutNs;
        copy.closeLingerNs = closeLingerNs;
        return copy.build();
    }

    public WebSocketConfig withRetainBufferBytes(int retainBufferBytes) {
        Copy copy = new Copy(this);
        copy.retainBufferBytes = retainBufferBytes;
        return copy.build();
    }

    public WebSocketConfig withSubprotocols(List<String> subprotocols) {
        Copy copy = new Copy(this);
        copy.subprotocols = subprotocols;
        return copy.build();
    }

    public WebSocketConfig withBackpressure(BackpressureConfig backpressure) {
        Copy copy = new Copy(this);
        copy.backpressure = backpressure;
        return copy.build();
    }

    /** A mutable copy, so each {@code with} method names only what it changes. */
    private static final class Copy {
        int maxFrameBytes;
        int maxMessageBytes;
        int maxHandshakeBytes;
        long handshakeTimeoutNs;
        long closeTimeoutNs;
        long closeLingerNs;
        int autoFragmentBytes;
        int retainBufferBytes;
        PerMessageDeflateConfig deflate;
        List<String> subprotocols;
        BackpressureConfig backpressure;

        Copy(WebSocketConfig config) {
            maxFrameBytes = config.maxFrameBytes;
            maxMessageBytes = config.maxMessageBytes;
            maxHandshakeBytes = config.maxHandshakeBytes;
            handshakeTimeoutNs = config.handshakeTimeoutNs;
            closeTimeoutNs = config.closeTimeoutNs;
            closeLingerNs = config.closeLingerNs;
            autoFragmentBytes = config.autoFragmentBytes;
            retainBufferBytes = config.retainBufferBytes;
            deflate = config.deflate;
            subprotocols = config.subprotocols;
            backpressure = config.backpressure;
        }

        WebSocketConfig build() {
            return new WebSocketConfig(
                    maxFrameBytes,
                    maxMessageBytes,
                    maxHandshakeBytes,
                    handshakeTimeoutNs,
                    closeTimeoutNs,
                    closeLingerNs,
                    autoFragmentBytes,
                    retainBufferBytes,
                    deflate,
                    subprotocols,
                    backpressure);
        }
    }
}
