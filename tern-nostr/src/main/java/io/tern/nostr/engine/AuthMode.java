package io.tern.nostr.engine;

/** What needs NIP-42 authentication. AUTH itself is always accepted, whatever the mode. */
public enum AuthMode {
    NONE(false, false),
    /** EVENT (publishing). */
    WRITE(true, false),
    /** REQ and COUNT (reading). */
    READ(false, true),
    ALL(true, true);

    private final boolean write;
    private final boolean read;

    AuthMode(boolean write, boolean read) {
        this.write = write;
        this.read = read;
    }

    public boolean requiredToWrite() {
        return write;
    }

    public boolean requiredToRead() {
        return read;
    }

    /** {@code none|write|read|all}, case-insensitive. */
    public static AuthMode parse(String s) {
        for (AuthMode m : values()) {
            if (m.name().equalsIgnoreCase(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("auth must be none, write, read or all, got '" + s + "'");
    }
}
