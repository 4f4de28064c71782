package io.tern.rtmp.amf;

/** Malformed or over-limit AMF0 input. */
public final class AmfException extends Exception {
    public AmfException(String message) {
        super(message);
    }
}
