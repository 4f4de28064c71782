package io.tern.hls.packager;

import io.tern.media.TrackType;

/**
 * The names of everything a stream instance serves, relative to its directory:
 * {@code video.m3u8}, {@code video-init-0.mp4}, {@code video-12.m4s} (segment 12) and
 * {@code video-p57.m4s} (part 57), and the same with {@code audio}. One place builds them and one
 * parses them, strictly: anything else is not found.
 */
public final class ObjectNames {
    /** What a name refers to. */
    public enum Kind {
        PLAYLIST,
        INIT,
        SEGMENT,
        PART
    }

    /** A parsed name: the rendition, the kind and the number (generation, MSN or part ID). */
    public record Parsed(TrackType track, Kind kind, long number) {}

    private static final int MAX_DIGITS = 18;

    private ObjectNames() {}

    public static String prefix(TrackType track) {
        return track == TrackType.VIDEO ? "video" : "audio";
    }

    public static String playlist(TrackType track) {
        return prefix(track) + ".m3u8";
    }

    public static String init(TrackType track, int generation) {
        return prefix(track) + "-init-" + generation + ".mp4";
    }

    public static String segment(TrackType track, long msn) {
        return prefix(track) + "-" + msn + ".m4s";
    }

    public static String part(TrackType track, long id) {
        return prefix(track) + "-p" + id + ".m4s";
    }

    /** Parses a name made by this class, or returns null. */
    public static Parsed parse(String name) {
        TrackType track;
        String rest;
        if (name.startsWith("video")) {
            track = TrackType.VIDEO;
            rest = name.substring(5);
        } else if (name.startsWith("audio")) {
            track = TrackType.AUDIO;
            rest = name.substring(5);
        } else {
            return null;
        }
        if (rest.equals(".m3u8")) {
            return new Parsed(track, Kind.PLAYLIST, 0);
        }
        if (rest.startsWith("-init-") && rest.endsWith(".mp4")) {
            long n = number(rest, 6, rest.length() - 4);
            return n < 0 || n > Integer.MAX_VALUE ? null : new Parsed(track, Kind.INIT, n);
        }
        if (rest.startsWith("-p") && rest.endsWith(".m4s")) {
            long n = number(rest, 2, rest.length() - 4);
            return n < 0 ? null : new Parsed(track, Kind.PART, n);
        }
        if (rest.startsWith("-") && rest.endsWith(".m4s")) {
            long n = number(rest, 1, rest.length() - 4);
            return n < 0 ? null : new Parsed(track, Kind.SEGMENT, n);
        }
        return null;
    }

    /** The decimal number in {@code s[from, to)}, without sign or leading zeros, or -1. */
    private static long number(String s, int from, int to) {
        int len = to - from;
        if (len < 1 || len > MAX_DIGITS || (len > 1 && s.charAt(from) == '0')) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
