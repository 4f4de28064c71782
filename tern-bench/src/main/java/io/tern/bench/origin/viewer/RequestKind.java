package io.tern.bench.origin.viewer;

import java.util.Locale;

/** What a viewer's request is for; results are counted and timed per kind. */
public enum RequestKind {
    /** The multivariant playlist, once per viewer at join. */
    MULTIVARIANT,
    /** A media playlist reload without blocking directives. */
    PLAYLIST,
    /** A media playlist reload with {@code _HLS_msn}/{@code _HLS_part}: held until the part exists. */
    BLOCKING_PLAYLIST,
    /** An EXT-X-MAP init segment. */
    INIT,
    /** A whole media segment. */
    SEGMENT,
    /** A part listed as EXT-X-PART (complete). */
    PART,
    /** The EXT-X-PRELOAD-HINT part, requested before it is complete. */
    HINTED_PART;

    public boolean playlist() {
        return this == MULTIVARIANT || this == PLAYLIST || this == BLOCKING_PLAYLIST;
    }

    /** The name used in reports ({@code blocking_playlist}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
