package io.tern.bench.origin.viewer;

import java.util.Locale;

/** Which player the generator simulates. */
public enum ViewerMode {
    CLASSIC,
    LL;

    public Viewer create(String entryPath, boolean allRenditions, long startAtNs, ViewerRecorder recorder) {
        return this == CLASSIC
                ? new ClassicViewer(entryPath, allRenditions, startAtNs, recorder)
                : new LowLatencyViewer(entryPath, allRenditions, startAtNs, recorder);
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ViewerMode parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "classic" -> CLASSIC;
            case "ll", "low-latency" -> LL;
            default -> throw new IllegalArgumentException("mode must be classic or ll, not '" + s + "'");
        };
    }
}
