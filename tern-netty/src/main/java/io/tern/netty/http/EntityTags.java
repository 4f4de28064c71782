package io.tern.netty.http;

/** {@code If-None-Match} against an entity tag, with the weak comparison RFC 9110 §13.1.2 asks for. */
final class EntityTags {
    private EntityTags() {}

    /** Whether {@code ifNoneMatch} (a list of tags, or "*") names {@code etag}. */
    static boolean matches(String ifNoneMatch, CharSequence etag) {
        String tag = opaque(etag.toString());
        int start = 0;
        int length = ifNoneMatch.length();
        while (start < length) {
            int end = ifNoneMatch.indexOf(',', start);
            if (end < 0) {
                end = length;
            }
            String candidate = ifNoneMatch.substring(start, end).trim();
            if (candidate.equals("*") || opaque(candidate).equals(tag)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }
}
