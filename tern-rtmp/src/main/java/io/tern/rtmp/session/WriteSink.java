package io.tern.rtmp.session;

/** Takes the bytes a session queued for the peer; it must copy them before returning. */
@FunctionalInterface
public interface WriteSink {
    void write(byte[] bytes, int offset, int length);
}
