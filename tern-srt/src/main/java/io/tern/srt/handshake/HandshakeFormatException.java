package io.tern.srt.handshake;

/** A handshake that cannot be decoded: it gets no answer. */
public final class HandshakeFormatException extends Exception {
    public HandshakeFormatException(String message) {
        super(message);
    }
}
