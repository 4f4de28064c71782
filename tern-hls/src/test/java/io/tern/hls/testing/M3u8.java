package io.tern.hls.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A strict little reader of the playlists the packager writes, for assertions. */
public final class M3u8 {
    public record PartTag(double duration, String uri, boolean independent) {}

    public static final class Seg {
        public long msn;
        public boolean discontinuity;
        public String map;
        public String programDateTime;
        public final List<PartTag> parts = new ArrayList<>();
        public double duration = -1;
        public String uri;

        public boolean complete() {
            return uri != null;
        }
    }

    public final List<String> lines = new ArrayList<>();
    public int version = -1;
    public int targetDuration = -1;
    public Map<String, String> serverControl;
    public double partTarget = -1;
    public long mediaSequence = -1;
    public long discontinuitySequence = -1;
    public final List<String> maps = new ArrayList<>();
    public final List<Map<String, String>> dateRanges = new ArrayList<>();
    public Map<String, String> skip;
    public final List<Seg> segments = new ArrayList<>();
    public final List<Map<String, String>> preloadHints = new ArrayList<>();
    public final List<Map<String, String>> renditionReports = new ArrayList<>();
    public boolean endList;

    // multivariant
    public final List<Map<String, String>> media = new ArrayList<>();
    public final List<Map<String, String>> streamInfs = new ArrayList<>();
    public final List<String> variantUris = new ArrayList<>();

    public static M3u8 parse(byte[] body) {
        return parse(new String(body, StandardCharsets.UTF_8));
    }

    public static M3u8 parse(String text) {
        M3u8 p = new M3u8();
        String[] ls = text.split("\n", -1);
        if (!ls[ls.length - 1].isEmpty()) {
            throw new IllegalStateException("playlist does not end with a newline");
        }
        if (!ls[0].equals("#EXTM3U")) {
            throw new IllegalStateException("no #EXTM3U");
        }
        Seg seg = null;
        boolean expectVariantUri = false;
        for (int i = 0; i < ls.length - 1; i++) {
            String l = ls[i];
            p.lines.add(l);
            if (l.isEmpty()) {
                throw new IllegalStateException("empty line " + i);
            }
            if (expectVariantUri) {
                p.variantUris.add(l);
                expectVariantUri = false;
                continue;
            }
            if (!l.startsWith("#")) {
                if (seg == null || seg.duration < 0) {
                    throw new IllegalStateException("URI without EXTINF: " + l);
                }
                seg.uri = l;
                seg = null;
                continue;
            }
            String tag = l.contains(":") ? l.substring(0, l.indexOf(':')) : l;
            String value = l.contains(":") ? l.substring(l.indexOf(':') + 1) : "";
            switch (tag) {
                case "#EXTM3U" -> {}
                case "#EXT-X-VERSION" -> p.version = Integer.parseInt(value);
                case "#EXT-X-TARGETDURATION" -> p.targetDuration = Integer.parseInt(value);
                case "#EXT-X-SERVER-CONTROL" -> p.serverControl = attributes(value);
                case "#EXT-X-PART-INF" ->
                    p.partTarget = Double.parseDouble(attributes(value).get("PART-TARGET"));
                case "#EXT-X-MEDIA-SEQUENCE" -> p.mediaSequence = Long.parseLong(value);
                case "#EXT-X-DISCONTINUITY-SEQUENCE" -> p.discontinuitySequence = Long.parseLong(value);
                case "#EXT-X-MAP" -> {
                    String uri = attributes(value).get("URI");
                    p.maps.add(uri);
                    seg = seg(p, seg);
                    seg.map = uri;
                }
                case "#EXT-X-DATERANGE" -> p.dateRanges.add(attributes(value));
                case "#EXT-X-SKIP" -> p.skip = attributes(value);
                case "#EXT-X-DISCONTINUITY" -> (seg = seg(p, seg)).discontinuity = true;
                case "#EXT-X-PROGRAM-DATE-TIME" -> (seg = seg(p, seg)).programDateTime = value;
                case "#EXT-X-PART" -> {
                    Map<String, String> a = attributes(value);
                    (seg = seg(p, seg))
                            .parts.add(new PartTag(
                                    Double.parseDouble(a.get("DURATION")),
                                    a.get("URI"),
                                    "YES".equals(a.get("INDEPENDENT"))));
                }
                case "#EXTINF" -> {
                    seg = seg(p, seg);
                    seg.duration = Double.parseDouble(value.substring(0, value.indexOf(',')));
                }
                case "#EXT-X-PRELOAD-HINT" -> p.preloadHints.add(attributes(value));
                case "#EXT-X-RENDITION-REPORT" -> p.renditionReports.add(attributes(value));
                case "#EXT-X-ENDLIST" -> p.endList = true;
                case "#EXT-X-MEDIA" -> p.media.add(attributes(value));
                case "#EXT-X-STREAM-INF" -> {
                    p.streamInfs.add(attributes(value));
                    expectVariantUri = true;
                }
                default -> throw new IllegalStateException("unknown tag " + l);
            }
        }
        long msn = p.mediaSequence;
        int skipped = p.skip == null ? 0 : Integer.parseInt(p.skip.get("SKIPPED-SEGMENTS"));
        msn += skipped;
        for (Seg s : p.segments) {
            s.msn = msn++;
        }
        return p;
    }

    /** The segment the next tag belongs to: the open one, or a new one. */
    private static Seg seg(M3u8 p, Seg current) {
        if (current != null) {
            return current;
        }
        Seg s = new Seg();
        p.segments.add(s);
        return s;
    }

    public List<Seg> completeSegments() {
        return segments.stream().filter(Seg::complete).toList();
    }

    /** Every listed part, in order. */
    public List<PartTag> parts() {
        List<PartTag> out = new ArrayList<>();
        segments.forEach(s -> out.addAll(s.parts));
        return out;
    }

    /** LAST-MSN / LAST-PART this playlist would report: its last part. */
    public long lastPartMsn() {
        for (int i = segments.size() - 1; i >= 0; i--) {
            if (!segments.get(i).parts.isEmpty()) {
                return segments.get(i).msn;
            }
        }
        return -1;
    }

    public int lastPartIndex() {
        for (int i = segments.size() - 1; i >= 0; i--) {
            if (!segments.get(i).parts.isEmpty()) {
                return segments.get(i).parts.size() - 1;
            }
        }
        return -1;
    }

    public static Map<String, String> attributes(String list) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        while (i < list.length()) {
            int eq = list.indexOf('=', i);
            String key = list.substring(i, eq);
            String value;
            int next;
            if (list.charAt(eq + 1) == '"') {
                int close = list.indexOf('"', eq + 2);
                value = list.substring(eq + 2, close);
                next = close + 1;
            } else {
                int comma = list.indexOf(',', eq);
                next = comma < 0 ? list.length() : comma;
                value = list.substring(eq + 1, next);
            }
            if (out.put(key, value) != null) {
                throw new IllegalStateException("attribute " + key + " twice in " + list);
            }
            if (next < list.length() && list.charAt(next) != ',') {
                throw new IllegalStateException("bad attribute list " + list);
            }
            i = next + 1;
        }
        return out;
    }
}
