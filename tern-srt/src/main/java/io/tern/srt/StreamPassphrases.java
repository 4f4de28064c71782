package io.tern.srt;

import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * A ready {@link StreamAuthorizer} for a server's configuration: publishing only, under one
 * resource prefix (e.g. {@code live/}), with the passphrase chosen per user ({@code u=}), else per
 * stream, else the server default (null: streams without their own passphrase are unencrypted).
 * Every passphrase is checked at construction, so a bad configuration fails at start naming it.
 */
public final class StreamPassphrases implements StreamAuthorizer {
    private final String prefix;
    private final String defaultPassphrase;
    private final Map<String, String> perStream;
    private final Map<String, String> perUser;

    public StreamPassphrases(
            String prefix, String defaultPassphrase, Map<String, String> perStream, Map<String, String> perUser) {
        this.prefix = prefix;
        this.defaultPassphrase = check("default passphrase", defaultPassphrase);
        perStream.forEach((k, v) -> check("passphrase of stream " + k, v));
        perUser.forEach((k, v) -> check("passphrase of user " + k, v));
        this.perStream = Map.copyOf(perStream);
        this.perUser = Map.copyOf(perUser);
    }

    private static String check(String what, String passphrase) {
        if (passphrase == null || passphrase.isEmpty()) {
            return null;
        }
        try {
            SrtSettings.checkPassphrase(passphrase);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("SRT " + what + ": " + e.getMessage());
        }
        return passphrase;
    }

    @Override
    public Decision authorize(StreamId id, InetSocketAddress peer) {
        if (id.mode() != StreamId.Mode.PUBLISH) {
            return Decision.reject(RejectReason.X_BAD_MODE);
        }
        if (!id.resource().startsWith(prefix) || id.resource().length() == prefix.length()) {
            return Decision.reject(RejectReason.X_NOTFOUND);
        }
        if (id.user() != null && perUser.containsKey(id.user())) {
            return Decision.accept(perUser.get(id.user()));
        }
        String own = perStream.get(id.resource());
        return Decision.accept(own != null ? own : defaultPassphrase);
    }
}
