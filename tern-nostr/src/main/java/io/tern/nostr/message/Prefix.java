package io.tern.nostr.message;

/** NIP-01's machine-readable prefixes for OK and CLOSED messages. */
public enum Prefix {
    DUPLICATE("duplicate"),
    INVALID("invalid"),
    BLOCKED("blocked"),
    RATE_LIMITED("rate-limited"),
    RESTRICTED("restricted"),
    AUTH_REQUIRED("auth-required"),
    ERROR("error");

    private final String word;

    Prefix(String word) {
        this.word = word;
    }

    /** {@code "<prefix>: <detail>"}. */
    public String message(String detail) {
        return word + ": " + detail;
    }

    /** The prefix a message starts with, or null for none of NIP-01's. */
    public static Prefix of(String message) {
        int colon = message.indexOf(':');
        if (colon < 0) {
            return null;
        }
        String w = message.substring(0, colon);
        for (Prefix p : values()) {
            if (p.word.equals(w)) {
                return p;
            }
        }
        return null;
    }

    public String word() {
        return word;
    }
}
