package io.tern.srt;

import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;

/**
 * Who may publish what, and with which passphrase, as a pure lookup: an owner can answer a
 * {@link SrtEvent.PublishRequested} with it ({@link SrtListener#answerPublish}). The server's
 * {@link StreamPassphrases} is one, from its configuration (per stream, per user, server default).
 */
@FunctionalInterface
public interface StreamAuthorizer {
    Decision authorize(StreamId streamId, InetSocketAddress peer);

    /**
     * Accept with a passphrase (null: the stream is not encrypted, and a caller that encrypts is
     * refused as libsrt refuses it), or reject with a libsrt code ({@link RejectReason}).
     */
    record Decision(boolean accepted, String passphrase, int rejectCode) {
        public static Decision accept(String passphrase) {
            return new Decision(true, passphrase, 0);
        }

        public static Decision reject(int code) {
            return new Decision(false, null, code);
        }
    }
}
