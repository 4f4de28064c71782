package io.tern.rtmp;

/** A condition that ends the session, with the reason reported in its close event. */
public final class RtmpException extends Exception {
    private final CloseReason reason;

    public RtmpException(CloseReason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public CloseReason reason() {
        return reason;
    }
}
