package io.tern.server.origin.auth;

import java.util.Objects;

/**
 * Whether a publisher may publish, and why not: the reason goes to the log and to the
 * publisher's refusal (RTMP {@code onStatus}, SRT rejection), never the secret or the token.
 */
public record PublishDecision(boolean allowed, String reason) {
    private static final PublishDecision ALLOWED = new PublishDecision(true, "allowed");

    public PublishDecision {
        Objects.requireNonNull(reason, "reason");
    }

    public static PublishDecision allow() {
        return ALLOWED;
    }

    public static PublishDecision refuse(String reason) {
        return new PublishDecision(false, reason);
    }
}
