package io.tern.hls.playlist;

import java.util.Objects;

/**
 * An {@code EXT-X-DATERANGE} (§4.4.5.1) the adapter adds to the stream, e.g. from a publisher's
 * cue points. The ID must be unique within the stream (§6.2.1).
 *
 * @param id the ID attribute
 * @param rangeClass the CLASS attribute, or null
 * @param startEpochMs START-DATE
 * @param durationMs DURATION, or -1 when not known
 */
public record DateRange(String id, String rangeClass, long startEpochMs, long durationMs) {
    public DateRange {
        Objects.requireNonNull(id, "id");
        if (!safe(id) || (rangeClass != null && !safe(rangeClass))) {
            throw new IllegalArgumentException(
                    "date range ID and CLASS must be 1 to 64 printable characters without quotes");
        }
        if (durationMs < -1) {
            throw new IllegalArgumentException("durationMs " + durationMs);
        }
    }

    /** The range's end, or its start when its duration is not known. */
    public long endEpochMs() {
        return durationMs < 0 ? startEpochMs : startEpochMs + durationMs;
    }

    public void appendTag(AsciiBuffer out) {
        out.append("#EXT-X-DATERANGE:ID=").quoted(id);
        if (rangeClass != null) {
            out.append(",CLASS=").quoted(rangeClass);
        }
        out.append(",START-DATE=\"");
        ProgramDateTime.append(out, startEpochMs);
        out.append('"');
        if (durationMs >= 0) {
            out.append(",DURATION=").decimal5(durationMs * 100);
        }
        out.newline();
    }

    private static boolean safe(String s) {
        if (s.isEmpty() || s.length() > 64) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7E || c == '"' || c == '\t') {
                return false;
            }
        }
        return true;
    }
}
