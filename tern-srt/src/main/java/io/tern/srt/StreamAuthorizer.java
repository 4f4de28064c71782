package io.tern.srt;

import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;

/**
 * The listener's owner decides who may publish what, and with which passphrase: a pure lookup
 * handed to the listener at construction and asked once per conclusion handshake (after the SYN
 * cookie proved the caller's address). The server implements it from its configuration (per
 * stream, per user, server default).
 */
@FunctionalInterface
public interface StreamAuthorizer {
    Decision authorize(StreamId streamId, InetSocketAddress peer);

    /**
     * Accept with a passphrase (null: the stream is not encrypted, and a caller that encrypts is
     * refused as libsrt refuses it), reject with a libsrt code ({@link RejectReason}), or not yet
     * ({@link #pending()}: the owner is still asking, e.g. an HTTP hook).
     */
    record Decision(boolean accepted, String passphrase, int rejectCode) {
        /** The {@code rejectCode} of {@link #pending()}; never sent. */
        public static final int PENDING = -1;

        private static final Decision NOT_YET = new Decision(false, null, PENDING);

        public static Decision accept(String passphrase) {
            return new Decision(true, passphrase, 0);
        }

        public static Decision reject(int code) {
            return new Decision(false, null, code);
        }

        /**
         * No answer yet: the conclusion is dropped without state, and the caller repeats it (libsrt
         * every 250 ms until its connect timeout, 3 s by default), when the owner is asked again.
         */
        public static Decision pending() {
            return NOT_YET;
        }

        public boolean isPending() {
            return !accepted && rejectCode == PENDING;
        }
    }
}
