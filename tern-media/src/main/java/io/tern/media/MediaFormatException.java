package io.tern.media;

/** Malformed media syntax (a configuration record, a parameter set, a frame). */
public final class MediaFormatException extends Exception {
    public MediaFormatException(String message) {
        super(message);
    }
}
