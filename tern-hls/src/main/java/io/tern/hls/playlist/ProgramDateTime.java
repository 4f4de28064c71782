package io.tern.hls.playlist;

/**
 * ISO 8601 date-times with milliseconds in UTC, as EXT-X-PROGRAM-DATE-TIME and DATERANGE use,
 * written digit by digit (the civil-from-days arithmetic of H. Hinnant's date algorithms) so
 * that rendering a playlist allocates nothing per segment.
 */
public final class ProgramDateTime {
    private static final long MS_PER_DAY = 86_400_000L;

    private ProgramDateTime() {}

    /** {@code 2026-12-01T20:08:35.209Z}. */
    public static void append(AsciiBuffer out, long epochMs) {
        long days = Math.floorDiv(epochMs, MS_PER_DAY);
        long msOfDay = Math.floorMod(epochMs, MS_PER_DAY);
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        digits(out, year, 4).append('-');
        digits(out, month, 2).append('-');
        digits(out, day, 2).append('T');
        digits(out, msOfDay / 3_600_000, 2).append(':');
        digits(out, msOfDay / 60_000 % 60, 2).append(':');
        digits(out, msOfDay / 1000 % 60, 2).append('.');
        digits(out, msOfDay % 1000, 3).append('Z');
    }

    private static AsciiBuffer digits(AsciiBuffer out, long v, int width) {
        long div = 1;
        for (int i = 1; i < width; i++) {
            div *= 10;
        }
        for (; div > 1 && v < div; div /= 10) {
            out.append('0');
        }
        return out.append(v);
    }
}
