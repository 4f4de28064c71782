package io.tern.netty.srt;

import io.tern.srt.SrtEvent;
import io.tern.srt.StreamAuthorizer;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A caller's request to publish ({@link SrtEvent.PublishRequested}), handed to the server to
 * answer once, from any thread, now or later (an HTTP hook, say): {@link #accept} with the
 * stream's passphrase or {@link #reject} with a libsrt code. The caller repeats its handshake
 * until then; an answer that comes after it gave up is ignored.
 */
public final class SrtPublishRequest {
    private final SrtServer server;
    private final long requestId;
    private final StreamId streamId;
    private final InetSocketAddress peer;
    private final AtomicBoolean answered = new AtomicBoolean();

    SrtPublishRequest(SrtServer server, SrtEvent.PublishRequested event) {
        this.server = server;
        this.requestId = event.requestId();
        this.streamId = event.streamId();
        this.peer = event.peer();
    }

    public StreamId streamId() {
        return streamId;
    }

    public InetSocketAddress peer() {
        return peer;
    }

    /** Lets the caller publish; {@code passphrase} null or empty for a stream that is not encrypted. */
    public void accept(String passphrase) {
        answer(StreamAuthorizer.Decision.accept(passphrase));
    }

    /** Refuses the caller with a libsrt code ({@link io.tern.srt.handshake.RejectReason}). */
    public void reject(int code) {
        answer(StreamAuthorizer.Decision.reject(code));
    }

    public void answer(StreamAuthorizer.Decision decision) {
        if (answered.compareAndSet(false, true)) {
            server.answer(requestId, decision);
        }
    }
}
