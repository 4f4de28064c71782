package io.tern.netty.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A route's path: literal segments and {@code {name}} captures, the last of which may be
 * {@code {name...}} to take the rest of the path. {@code /live/{stream}/{file}} matches
 * {@code /live/cam1/index.m3u8}. Captures are percent-decoded; a malformed escape does not match.
 */
final class PathPattern {
    private final String source;
    /** Per segment: the literal, or null for a capture. */
    private final String[] literals;

    private final String[] names;
    /** The capture index of each segment, -1 for literals. */
    private final int[] captureOf;

    private final boolean rest;

    PathPattern(String source) {
        if (!source.startsWith("/")) {
            throw new IllegalArgumentException("a route pattern starts with '/': " + source);
        }
        this.source = source;
        String[] segments = source.substring(1).split("/", -1);
        literals = new String[segments.length];
        captureOf = new int[segments.length];
        List<String> captureNames = new ArrayList<>();
        boolean greedy = false;
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.startsWith("{") && segment.endsWith("}")) {
                String name = segment.substring(1, segment.length() - 1);
                if (name.endsWith("...")) {
                    if (i != segments.length - 1) {
                        throw new IllegalArgumentException("only the last segment may be {name...}: " + source);
                    }
                    name = name.substring(0, name.length() - 3);
                    greedy = true;
                }
                if (name.isEmpty() || captureNames.contains(name)) {
                    throw new IllegalArgumentException("empty or repeated capture name in " + source);
                }
                captureOf[i] = captureNames.size();
                captureNames.add(name);
            } else {
                if (segment.contains("{") || segment.contains("}")) {
                    throw new IllegalArgumentException("a capture must be a whole segment: " + source);
                }
                literals[i] = segment;
                captureOf[i] = -1;
            }
        }
        names = captureNames.toArray(new String[0]);
        rest = greedy;
    }

    String[] names() {
        return names;
    }

    /** The captures of {@code path} (no query), or null when it does not match. */
    String[] match(String path) {
        if (path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        String[] captures = names.length == 0 ? NO_CAPTURES : new String[names.length];
        int start = 1;
        for (int i = 0; i < literals.length; i++) {
            boolean last = i == literals.length - 1;
            int end = last && rest ? path.length() : path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            if (last != (end == path.length())) {
                return null;
            }
            if (literals[i] != null) {
                if (!path.regionMatches(start, literals[i], 0, literals[i].length())
                        || end - start != literals[i].length()) {
                    return null;
                }
            } else {
                if (end == start && !(last && rest)) {
                    return null;
                }
                String value = decode(path, start, end);
                if (value == null) {
                    return null;
                }
                captures[captureOf[i]] = value;
            }
            start = end + 1;
        }
        return captures;
    }

    private static final String[] NO_CAPTURES = new String[0];

    /** Percent-decodes {@code path[start, end)} as UTF-8; '+' stays '+', as it does in a path. */
    static String decode(String path, int start, int end) {
        int percent = path.indexOf('%', start);
        if (percent < 0 || percent >= end) {
            return path.substring(start, end);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(end - start);
        for (int i = start; i < end; i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= end) {
                    return null;
                }
                int high = Character.digit(path.charAt(i + 1), 16);
                int low = Character.digit(path.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return null;
                }
                bytes.write(high << 4 | low);
                i += 2;
            } else if (c < 0x80) {
                bytes.write(c);
            } else {
                int codePoint = path.codePointAt(i);
                byte[] encoded = Character.toString(codePoint).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
                i += Character.charCount(codePoint) - 1;
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return source;
    }
}
