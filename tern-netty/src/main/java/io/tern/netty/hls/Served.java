package io.tern.netty.hls;

import java.util.Locale;

/** What the HTTP side served, by kind; the lower-case names are the HTTP counters' request kinds too. */
public enum Served {
    MULTIVARIANT,
    PLAYLIST,
    /** A media playlist with {@code _HLS_msn}: a blocking reload. */
    BLOCKING_PLAYLIST,
    INIT,
    PART,
    /** The preload-hinted part, asked for before it was complete. */
    HINTED_PART,
    SEGMENT;

    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
        return label;
    }
}
