package io.tern.hls.playlist;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/** ISO 8601 date-times with milliseconds in UTC, as EXT-X-PROGRAM-DATE-TIME and DATERANGE use. */
public final class ProgramDateTime {
    private ProgramDateTime() {}

    /** {@code 2026-12-01T20:08:35.209Z}. */
    public static void append(AsciiBuffer out, long epochMs) {
        ZonedDateTime t = Instant.ofEpochMilli(epochMs).atZone(ZoneOffset.UTC);
        pad(out, t.getYear(), 4).append('-');
        pad(out, t.getMonthValue(), 2).append('-');
        pad(out, t.getDayOfMonth(), 2).append('T');
        pad(out, t.getHour(), 2).append(':');
        pad(out, t.getMinute(), 2).append(':');
        pad(out, t.getSecond(), 2).append('.');
        pad(out, Math.floorMod(epochMs, 1000), 3).append('Z');
    }

    private static AsciiBuffer pad(AsciiBuffer out, long v, int digits) {
        for (long div = (long) Math.pow(10, digits - 1); div > 1 && v < div; div /= 10) {
            out.append('0');
        }
        return out.append(v);
    }
}
