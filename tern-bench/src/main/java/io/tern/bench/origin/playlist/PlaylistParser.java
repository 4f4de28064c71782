package io.tern.bench.origin.playlist;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses what a player needs from a playlist: for media playlists the segments, parts, preload
 * hint, map and server control; for multivariant playlists the variants and audio renditions.
 * Other tags are ignored. Malformed input throws {@link IllegalArgumentException} with the line.
 */
public final class PlaylistParser {
    private PlaylistParser() {}

    /** Parses {@code text} fetched from {@code path} (its URIs are resolved against it). */
    public static Playlist parse(String path, String text) {
        if (!text.startsWith("#EXTM3U")) {
            throw new IllegalArgumentException("not a playlist (no #EXTM3U)");
        }
        return text.contains("#EXT-X-STREAM-INF") ? multivariant(path, text) : media(path, text);
    }

    public static MediaPlaylist parseMedia(String path, String text) {
        if (parse(path, text) instanceof MediaPlaylist m) {
            return m;
        }
        throw new IllegalArgumentException("a multivariant playlist where a media playlist was expected");
    }

    private static MultivariantPlaylist multivariant(String path, String text) {
        List<MultivariantPlaylist.Variant> variants = new ArrayList<>();
        List<MultivariantPlaylist.AudioRendition> audio = new ArrayList<>();
        String pendingInf = null;
        for (String line : lines(text)) {
            if (line.startsWith("#EXT-X-STREAM-INF:")) {
                pendingInf = line;
            } else if (line.startsWith("#EXT-X-MEDIA:")) {
                int from = "#EXT-X-MEDIA:".length();
                String uri = Attributes.get(line, from, "URI");
                if ("AUDIO".equals(Attributes.get(line, from, "TYPE")) && uri != null) {
                    audio.add(new MultivariantPlaylist.AudioRendition(
                            require(line, Attributes.get(line, from, "GROUP-ID"), "GROUP-ID"),
                            Attributes.get(line, from, "NAME"),
                            "YES".equals(Attributes.get(line, from, "DEFAULT")),
                            Uris.resolve(path, uri)));
                }
            } else if (!line.startsWith("#") && pendingInf != null) {
                int from = "#EXT-X-STREAM-INF:".length();
                String bw = require(pendingInf, Attributes.get(pendingInf, from, "BANDWIDTH"), "BANDWIDTH");
                variants.add(new MultivariantPlaylist.Variant(
                        Long.parseLong(bw),
                        Attributes.get(pendingInf, from, "CODECS"),
                        Attributes.get(pendingInf, from, "AUDIO"),
                        Uris.resolve(path, line)));
                pendingInf = null;
            }
        }
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("multivariant playlist without a variant URI");
        }
        return new MultivariantPlaylist(List.copyOf(variants), List.copyOf(audio));
    }

    private static MediaPlaylist media(String path, String text) {
        String rendition = Uris.stripQuery(path);
        long targetUs = -1;
        long partTargetUs = 0;
        long mediaSequence = 0;
        int skipped = 0;
        boolean endList = false;
        boolean canBlock = false;
        long canSkipUs = 0;
        boolean canSkipDateRanges = false;
        long partHoldBackUs = 0;
        String map = null;
        List<MediaPlaylist.Segment> segments = new ArrayList<>();
        List<MediaPlaylist.Part> parts = new ArrayList<>();
        MediaPlaylist.PreloadHint hint = null;
        long pendingDurationUs = -1;
        int openParts = 0;
        boolean sequenceFixed = false;
        for (String line : lines(text)) {
            if (line.isEmpty()) {
                continue;
            }
            if (line.charAt(0) != '#') {
                if (pendingDurationUs < 0) {
                    throw new IllegalArgumentException("segment URI without #EXTINF: " + line);
                }
                sequenceFixed = true;
                long msn = mediaSequence + skipped + segments.size();
                segments.add(new MediaPlaylist.Segment(msn, pendingDurationUs, Uris.resolve(path, line)));
                pendingDurationUs = -1;
                openParts = 0;
            } else if (line.startsWith("#EXTINF:")) {
                int comma = line.indexOf(',');
                pendingDurationUs =
                        Attributes.secondsToUs(line.substring("#EXTINF:".length(), comma < 0 ? line.length() : comma));
            } else if (line.startsWith("#EXT-X-PART:")) {
                int from = "#EXT-X-PART:".length();
                sequenceFixed = true;
                long msn = mediaSequence + skipped + segments.size();
                parts.add(new MediaPlaylist.Part(
                        msn,
                        openParts++,
                        Attributes.secondsToUs(require(line, Attributes.get(line, from, "DURATION"), "DURATION")),
                        "YES".equals(Attributes.get(line, from, "INDEPENDENT")),
                        Uris.resolve(path, require(line, Attributes.get(line, from, "URI"), "URI"))));
            } else if (line.startsWith("#EXT-X-PRELOAD-HINT:")) {
                int from = "#EXT-X-PRELOAD-HINT:".length();
                if ("PART".equals(Attributes.get(line, from, "TYPE"))) {
                    long msn = mediaSequence + skipped + segments.size();
                    hint = new MediaPlaylist.PreloadHint(
                            msn,
                            openParts,
                            Uris.resolve(path, require(line, Attributes.get(line, from, "URI"), "URI")));
                }
            } else if (line.startsWith("#EXT-X-TARGETDURATION:")) {
                targetUs = 1_000_000L
                        * Long.parseLong(line.substring("#EXT-X-TARGETDURATION:".length())
                                .trim());
            } else if (line.startsWith("#EXT-X-MEDIA-SEQUENCE:")) {
                if (sequenceFixed) {
                    throw new IllegalArgumentException("EXT-X-MEDIA-SEQUENCE after the first segment");
                }
                mediaSequence = Long.parseLong(
                        line.substring("#EXT-X-MEDIA-SEQUENCE:".length()).trim());
            } else if (line.startsWith("#EXT-X-SKIP:")) {
                skipped = Integer.parseInt(require(
                        line, Attributes.get(line, "#EXT-X-SKIP:".length(), "SKIPPED-SEGMENTS"), "SKIPPED-SEGMENTS"));
            } else if (line.startsWith("#EXT-X-SERVER-CONTROL:")) {
                int from = "#EXT-X-SERVER-CONTROL:".length();
                canBlock = "YES".equals(Attributes.get(line, from, "CAN-BLOCK-RELOAD"));
                canSkipUs = Attributes.seconds(line, from, "CAN-SKIP-UNTIL", 0);
                canSkipDateRanges = "YES".equals(Attributes.get(line, from, "CAN-SKIP-DATERANGES"));
                partHoldBackUs = Attributes.seconds(line, from, "PART-HOLD-BACK", 0);
            } else if (line.startsWith("#EXT-X-PART-INF:")) {
                partTargetUs = Attributes.seconds(line, "#EXT-X-PART-INF:".length(), "PART-TARGET", 0);
            } else if (line.startsWith("#EXT-X-MAP:")) {
                map = Uris.resolve(path, require(line, Attributes.get(line, "#EXT-X-MAP:".length(), "URI"), "URI"));
            } else if (line.startsWith("#EXT-X-ENDLIST")) {
                endList = true;
            }
        }
        if (targetUs <= 0) {
            throw new IllegalArgumentException("media playlist without EXT-X-TARGETDURATION");
        }
        return new MediaPlaylist(
                rendition,
                targetUs,
                partTargetUs,
                mediaSequence,
                skipped,
                endList,
                canBlock,
                canSkipUs,
                canSkipDateRanges,
                partHoldBackUs,
                map,
                List.copyOf(segments),
                List.copyOf(parts),
                endList ? null : hint);
    }

    private static String require(String line, String value, String name) {
        if (value == null) {
            throw new IllegalArgumentException("missing " + name + " in: " + line);
        }
        return value;
    }

    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int n = text.length();
        while (start < n) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = n;
            }
            int e = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
            out.add(text.substring(start, e).trim());
            start = end + 1;
        }
        return out;
    }
}
