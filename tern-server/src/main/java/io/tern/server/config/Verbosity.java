package io.tern.server.config;

/** coturn's {@code -v} / {@code -V}. */
public enum Verbosity {
    NONE,
    /** {@code verbose}, {@code -v}. */
    NORMAL,
    /** {@code Verbose}, {@code -V}. */
    EXTRA
}
