package io.tern.nostr.event;

import java.util.ArrayList;
import java.util.List;

/** Reading the tags NIP-01, 09 and 40 give meaning to. */
public final class Tags {
    /** Returned by {@link #expiration} for a tag whose value is not a Unix time. */
    public static final long MALFORMED = -2;

    private Tags() {}

    /** The first value of the first tag named {@code name}, or {@code absent}. */
    public static String firstValue(List<List<String>> tags, String name, String absent) {
        for (List<String> tag : tags) {
            if (tag.size() >= 2 && tag.get(0).equals(name)) {
                return tag.get(1);
            }
        }
        return absent;
    }

    /**
     * The NIP-40 {@code expiration} tag: its Unix time, -1 when there is none, or {@link #MALFORMED}
     * when its value is not a non-negative decimal integer.
     */
    public static long expiration(List<List<String>> tags) {
        for (List<String> tag : tags) {
            if (!tag.isEmpty() && tag.get(0).equals("expiration")) {
                return tag.size() >= 2 ? parseSeconds(tag.get(1)) : MALFORMED;
            }
        }
        return -1;
    }

    private static long parseSeconds(String s) {
        if (s.isEmpty() || s.length() > 16) {
            return MALFORMED;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return MALFORMED;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Whether a tag is one NIP-01 filters can select ({@code #x}): a one-letter name and a value. */
    public static boolean isIndexed(List<String> tag) {
        return tag.size() >= 2
                && tag.get(0).length() == 1
                && isTagLetter(tag.get(0).charAt(0));
    }

    public static boolean isTagLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    static List<List<String>> copyOf(List<List<String>> tags) {
        List<List<String>> out = new ArrayList<>(tags.size());
        for (List<String> tag : tags) {
            out.add(List.copyOf(tag));
        }
        return List.copyOf(out);
    }
}
