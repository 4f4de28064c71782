package io.tern.hls.swarm;

import java.util.HashMap;
import java.util.Map;

/** The attribute list of a playlist tag (RFC 8216 §4.2), as far as the swarm's tags use it. */
final class TagAttributes {
    private TagAttributes() {}

    /** NAME=value pairs, quoted values kept with their quotes; null if malformed or a name repeats. */
    static Map<String, String> parse(String list) {
        Map<String, String> out = new HashMap<>();
        int i = 0;
        int n = list.length();
        while (i < n) {
            int eq = list.indexOf('=', i);
            if (eq <= i) {
                return null;
            }
            String name = list.substring(i, eq);
            int end;
            if (eq + 1 < n && list.charAt(eq + 1) == '"') {
                int close = list.indexOf('"', eq + 2);
                if (close < 0) {
                    return null;
                }
                end = close + 1;
            } else {
                end = list.indexOf(',', eq + 1);
                if (end < 0) {
                    end = n;
                }
            }
            if (out.put(name, list.substring(eq + 1, end)) != null) {
                return null;
            }
            if (end < n && list.charAt(end) != ',') {
                return null;
            }
            i = end + 1;
        }
        return out;
    }

    static String unquote(String value) {
        if (value == null || value.length() < 2 || value.charAt(0) != '"' || value.charAt(value.length() - 1) != '"') {
            return null;
        }
        return value.substring(1, value.length() - 1);
    }

    static Long decimal(String value) {
        if (value == null || !value.matches("-?[0-9]{1,18}")) {
            return null;
        }
        return Long.parseLong(value);
    }
}
