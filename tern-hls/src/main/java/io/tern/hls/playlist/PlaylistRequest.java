package io.tern.hls.playlist;

/**
 * The delivery directives of a media playlist request (§6.2.5): {@code _HLS_msn}, {@code
 * _HLS_part} and {@code _HLS_skip}, parsed from the raw query string. Other parameters (a CDN's
 * tokens, cache busters) are ignored, as are unknown {@code _HLS_} ones.
 *
 * @param msn the requested media sequence number, or -1 without {@code _HLS_msn}
 * @param part the requested part index, or -1 without {@code _HLS_part}
 */
public record PlaylistRequest(long msn, long part, SkipRequest skip) {
    public static final PlaylistRequest PLAIN = new PlaylistRequest(-1, -1, SkipRequest.NONE);

    private static final int MAX_QUERY_CHARS = 4096;
    private static final int MAX_DIGITS = 15;

    /** A parse result: the request, or why it is a bad request (400). */
    public record Parsed(PlaylistRequest request, String error) {
        public boolean ok() {
            return error == null;
        }
    }

    public boolean blocking() {
        return msn >= 0;
    }

    /** Parses {@code query} (without the {@code ?}; null or empty is a plain request). */
    public static Parsed parse(String query) {
        if (query == null || query.isEmpty()) {
            return new Parsed(PLAIN, null);
        }
        if (query.length() > MAX_QUERY_CHARS) {
            return new Parsed(null, "query string longer than " + MAX_QUERY_CHARS + " characters");
        }
        long msn = -1;
        long part = -1;
        SkipRequest skip = SkipRequest.NONE;
        boolean seenMsn = false;
        boolean seenPart = false;
        boolean seenSkip = false;
        int start = 0;
        while (start <= query.length()) {
            int amp = query.indexOf('&', start);
            int end = amp < 0 ? query.length() : amp;
            int eq = query.indexOf('=', start);
            String key = eq >= 0 && eq < end ? query.substring(start, eq) : query.substring(start, end);
            String value = eq >= 0 && eq < end ? query.substring(eq + 1, end) : null;
            switch (key) {
                case "_HLS_msn" -> {
                    if (seenMsn) {
                        return new Parsed(null, "_HLS_msn given twice");
                    }
                    seenMsn = true;
                    msn = decimal(value);
                    if (msn < 0) {
                        return new Parsed(null, "_HLS_msn=" + value + " is not a decimal integer");
                    }
                }
                case "_HLS_part" -> {
                    if (seenPart) {
                        return new Parsed(null, "_HLS_part given twice");
                    }
                    seenPart = true;
                    part = decimal(value);
                    if (part < 0) {
                        return new Parsed(null, "_HLS_part=" + value + " is not a decimal integer");
                    }
                }
                case "_HLS_skip" -> {
                    if (seenSkip) {
                        return new Parsed(null, "_HLS_skip given twice");
                    }
                    seenSkip = true;
                    if ("YES".equals(value)) {
                        skip = SkipRequest.YES;
                    } else if ("v2".equals(value)) {
                        skip = SkipRequest.V2;
                    } else {
                        return new Parsed(null, "_HLS_skip=" + value + " is neither YES nor v2");
                    }
                }
                default -> {}
            }
            if (amp < 0) {
                break;
            }
            start = amp + 1;
        }
        if (seenPart && !seenMsn) {
            // §6.2.5.2: _HLS_part without _HLS_msn MUST get Bad Request.
            return new Parsed(null, "_HLS_part without _HLS_msn");
        }
        return new Parsed(new PlaylistRequest(msn, part, skip), null);
    }

    private static long decimal(String s) {
        if (s == null || s.isEmpty() || s.length() > MAX_DIGITS) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
