package io.tern.bench.origin.viewer;

/** The {@code _HLS_skip} directive of a playlist reload. */
public enum SkipMode {
    NONE(null),
    YES("YES"),
    V2("v2");

    private final String value;

    SkipMode(String value) {
        this.value = value;
    }

    /** The directive's value, or null for none. */
    public String value() {
        return value;
    }
}
