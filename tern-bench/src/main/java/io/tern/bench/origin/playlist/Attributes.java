package io.tern.bench.origin.playlist;

/** Reads one attribute of an HLS attribute list ({@code NAME=value,NAME="quoted",...}). */
final class Attributes {
    private Attributes() {}

    /** The value of {@code name} in the attribute list starting at {@code from}, quotes removed, or null. */
    static String get(String line, int from, String name) {
        int i = from;
        int n = line.length();
        while (i < n) {
            int eq = line.indexOf('=', i);
            if (eq < 0) {
                return null;
            }
            boolean match = eq - i == name.length() && line.regionMatches(i, name, 0, name.length());
            int valueStart = eq + 1;
            int valueEnd;
            int next;
            if (valueStart < n && line.charAt(valueStart) == '"') {
                int close = line.indexOf('"', valueStart + 1);
                if (close < 0) {
                    throw new IllegalArgumentException("unterminated quoted value in: " + line);
                }
                valueEnd = close;
                valueStart++;
                next = close + 1;
            } else {
                int comma = line.indexOf(',', valueStart);
                valueEnd = comma < 0 ? n : comma;
                next = valueEnd;
            }
            if (match) {
                return line.substring(valueStart, valueEnd);
            }
            i = next < n && line.charAt(next) == ',' ? next + 1 : next;
        }
        return null;
    }

    /** A decimal-seconds attribute as microseconds, or {@code absent}. */
    static long seconds(String line, int from, String name, long absent) {
        String v = get(line, from, name);
        return v == null ? absent : secondsToUs(v);
    }

    static long secondsToUs(String decimal) {
        String v = decimal.trim();
        if (v.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        return Math.round(Double.parseDouble(v) * 1e6);
    }
}
