package io.tern.hls.mp4;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of the fragmented MP4 this module writes, for tests: it walks every box,
 * checks that sizes nest exactly, and turns fragments back into samples. Anything unexpected
 * throws, so a test that parses output also checks its structure.
 */
public final class Mp4Reader {
    /** What the init segment says about one track. */
    public record Track(
            int trackId,
            int timescale,
            String handler,
            String sampleEntry,
            byte[] decoderConfig,
            int width,
            int height,
            int channels,
            int sampleRate) {}

    /** One sample read back from a fragment. */
    public record Sample(int trackId, long dts, int duration, int compositionOffset, int flags, byte[] data) {
        public boolean sync() {
            return SampleFlags.isSync(flags);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Sample s
                    && s.trackId == trackId
                    && s.dts == dts
                    && s.duration == duration
                    && s.compositionOffset == compositionOffset
                    && s.flags == flags
                    && Arrays.equals(s.data, data);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(dts) * 31 + trackId;
        }

        @Override
        public String toString() {
            return "Sample[track=" + trackId + " dts=" + dts + " dur=" + duration + " cto=" + compositionOffset
                    + " flags=" + Integer.toHexString(flags) + " " + data.length + " B]";
        }
    }

    /** One fragment: its sequence number, where it starts, and its samples. */
    public record Fragment(int sequenceNumber, int offset, int length, List<Sample> samples) {}

    public final List<String> brands = new ArrayList<>();
    public final Map<Integer, Track> tracks = new HashMap<>();
    public final List<Fragment> fragments = new ArrayList<>();
    public final List<String> topLevel = new ArrayList<>();

    private final Map<Integer, Integer> trexFlags = new HashMap<>();

    public static Mp4Reader read(byte[] file) {
        Mp4Reader r = new Mp4Reader();
        r.parse(file);
        return r;
    }

    public List<Sample> samples(int trackId) {
        List<Sample> out = new ArrayList<>();
        for (Fragment f : fragments) {
            for (Sample s : f.samples()) {
                if (s.trackId() == trackId) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    private void parse(byte[] b) {
        int pos = 0;
        int pendingMoof = -1;
        List<Sample> pendingSamples = null;
        int pendingSeq = 0;
        while (pos < b.length) {
            Box box = Box.at(b, pos, b.length);
            topLevel.add(box.type);
            switch (box.type) {
                case "ftyp" -> {
                    brands.add(fourCc(b, box.body));
                    for (int p = box.body + 8; p < box.end; p += 4) {
                        brands.add(fourCc(b, p));
                    }
                }
                case "moov" -> parseMoov(b, box);
                case "moof" -> {
                    if (pendingMoof >= 0) {
                        throw new IllegalStateException("moof without mdat at " + pendingMoof);
                    }
                    pendingMoof = box.start;
                    pendingSamples = new ArrayList<>();
                    pendingSeq = parseMoof(b, box, pendingSamples);
                }
                case "mdat" -> {
                    if (pendingMoof < 0) {
                        throw new IllegalStateException("mdat without moof at " + box.start);
                    }
                    for (Sample s : pendingSamples) {
                        if (s.data.length < 0) {
                            throw new IllegalStateException();
                        }
                    }
                    fragments.add(new Fragment(pendingSeq, pendingMoof, box.end - pendingMoof, pendingSamples));
                    pendingMoof = -1;
                }
                case "free", "skip", "styp", "sidx" -> {}
                default -> throw new IllegalStateException("unexpected top-level box " + box.type);
            }
            pos = box.end;
        }
        if (pendingMoof >= 0) {
            throw new IllegalStateException("trailing moof without mdat");
        }
    }

    private void parseMoov(byte[] b, Box moov) {
        for (Box c : moov.children(b)) {
            switch (c.type) {
                case "mvhd" -> {}
                case "trak" -> parseTrak(b, c);
                case "mvex" -> {
                    for (Box trex : c.children(b)) {
                        expect(trex, "trex");
                        trexFlags.put(i32(b, trex.body + 4), i32(b, trex.body + 20));
                    }
                }
                default -> throw new IllegalStateException("unexpected box in moov: " + c.type);
            }
        }
    }

    private void parseTrak(byte[] b, Box trak) {
        Box tkhd = trak.child(b, "tkhd");
        int trackId = i32(b, tkhd.body + 12);
        int width = i32(b, tkhd.end - 8) >>> 16;
        int height = i32(b, tkhd.end - 4) >>> 16;
        Box mdia = trak.child(b, "mdia");
        Box mdhd = mdia.child(b, "mdhd");
        int timescale = i32(b, mdhd.body + 12);
        Box hdlr = mdia.child(b, "hdlr");
        String handler = fourCc(b, hdlr.body + 8);
        Box minf = mdia.child(b, "minf");
        Box stbl = minf.child(b, "stbl");
        Box stsd = stbl.child(b, "stsd");
        if (i32(b, stsd.body + 4) != 1) {
            throw new IllegalStateException("stsd entry count");
        }
        Box entry = Box.at(b, stsd.body + 8, stsd.end);
        byte[] config;
        int channels = 0;
        int sampleRate = 0;
        if (entry.type.equals("avc1")) {
            Box avcC = Box.at(b, entry.body + 78, entry.end);
            expect(avcC, "avcC");
            config = Arrays.copyOfRange(b, avcC.body, avcC.end);
            width = u16(b, entry.body + 24);
            height = u16(b, entry.body + 26);
        } else if (entry.type.equals("mp4a")) {
            channels = u16(b, entry.body + 16);
            sampleRate = i32(b, entry.body + 24) >>> 16;
            Box esds = Box.at(b, entry.body + 28, entry.end);
            expect(esds, "esds");
            config = decoderSpecificInfo(b, esds.body + 4, esds.end);
        } else {
            throw new IllegalStateException("sample entry " + entry.type);
        }
        for (String empty : List.of("stts", "stsc", "stco")) {
            if (i32(b, stbl.child(b, empty).body + 4) != 0) {
                throw new IllegalStateException(empty + " not empty");
            }
        }
        tracks.put(
                trackId,
                new Track(trackId, timescale, handler, entry.type, config, width, height, channels, sampleRate));
    }

    /** The DecoderSpecificInfo (tag 5) inside an ES_Descriptor. */
    private static byte[] decoderSpecificInfo(byte[] b, int pos, int end) {
        while (pos < end) {
            int tag = b[pos] & 0xFF;
            int len = 0;
            int p = pos + 1;
            int c;
            do {
                c = b[p++] & 0xFF;
                len = (len << 7) | (c & 0x7F);
            } while ((c & 0x80) != 0);
            switch (tag) {
                case 3 -> pos = p + 3;
                case 4 -> pos = p + 13;
                case 5 -> {
                    return Arrays.copyOfRange(b, p, p + len);
                }
                default -> pos = p + len;
            }
        }
        throw new IllegalStateException("no DecoderSpecificInfo");
    }

    private int parseMoof(byte[] b, Box moof, List<Sample> out) {
        Box mfhd = moof.child(b, "mfhd");
        int seq = i32(b, mfhd.body + 4);
        Box mdat = Box.at(b, moof.end, b.length);
        expect(mdat, "mdat");
        // Each traf's samples follow the previous traf's in the one mdat, which they fill exactly.
        int nextData = mdat.body;
        for (Box traf : moof.children(b)) {
            if (!traf.type.equals("traf")) {
                if (!traf.type.equals("mfhd")) {
                    throw new IllegalStateException("unexpected box in moof: " + traf.type);
                }
                continue;
            }
            Box tfhd = traf.child(b, "tfhd");
            int tfhdFlags = i32(b, tfhd.body) & 0xFF_FFFF;
            if ((tfhdFlags & FragmentWriter.TFHD_DEFAULT_BASE_IS_MOOF) == 0) {
                throw new IllegalStateException("tfhd without default-base-is-moof");
            }
            int trackId = i32(b, tfhd.body + 4);
            int p = tfhd.body + 8;
            int defaultFlags = trexFlags.getOrDefault(trackId, 0);
            if ((tfhdFlags & 0x01) != 0) p += 8;
            if ((tfhdFlags & 0x02) != 0) p += 4;
            if ((tfhdFlags & 0x08) != 0) p += 4;
            if ((tfhdFlags & 0x10) != 0) p += 4;
            if ((tfhdFlags & FragmentWriter.TFHD_DEFAULT_SAMPLE_FLAGS) != 0) {
                defaultFlags = i32(b, p);
            }
            Box tfdt = traf.child(b, "tfdt");
            long dts = (b[tfdt.body] & 0xFF) == 1 ? i64(b, tfdt.body + 4) : i32(b, tfdt.body + 4) & 0xFFFF_FFFFL;
            Box trun = traf.child(b, "trun");
            int trunFlags = i32(b, trun.body) & 0xFF_FFFF;
            int version = b[trun.body] & 0xFF;
            int count = i32(b, trun.body + 4);
            int q = trun.body + 8;
            int dataOffset = 0;
            if ((trunFlags & FragmentWriter.TRUN_DATA_OFFSET) != 0) {
                dataOffset = i32(b, q);
                q += 4;
            }
            if ((trunFlags & 0x04) != 0) q += 4;
            int data = moof.start + dataOffset;
            for (int i = 0; i < count; i++) {
                int duration = 0;
                int size = 0;
                int flags = defaultFlags;
                int cto = 0;
                if ((trunFlags & FragmentWriter.TRUN_DURATION) != 0) {
                    duration = i32(b, q);
                    q += 4;
                }
                if ((trunFlags & FragmentWriter.TRUN_SIZE) != 0) {
                    size = i32(b, q);
                    q += 4;
                }
                if ((trunFlags & FragmentWriter.TRUN_FLAGS) != 0) {
                    flags = i32(b, q);
                    q += 4;
                }
                if ((trunFlags & FragmentWriter.TRUN_COMPOSITION_OFFSET) != 0) {
                    cto = i32(b, q);
                    if (version == 0 && cto < 0) {
                        throw new IllegalStateException("unsigned composition offset overflow");
                    }
                    q += 4;
                }
                if (data + size > b.length) {
                    throw new IllegalStateException("sample data beyond the file");
                }
                out.add(new Sample(trackId, dts, duration, cto, flags, Arrays.copyOfRange(b, data, data + size)));
                data += size;
                dts += duration;
            }
            if (q != trun.end) {
                throw new IllegalStateException("trun size mismatch");
            }
            if (moof.start + dataOffset != nextData) {
                throw new IllegalStateException("samples do not follow each other in the mdat");
            }
            nextData = data;
        }
        if (nextData != mdat.end) {
            throw new IllegalStateException("samples do not fill the mdat exactly");
        }
        return seq;
    }

    private static void expect(Box box, String type) {
        if (!box.type.equals(type)) {
            throw new IllegalStateException("expected " + type + ", found " + box.type);
        }
    }

    static int u16(byte[] b, int p) {
        return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
    }

    static int i32(byte[] b, int p) {
        return ((b[p] & 0xFF) << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
    }

    static long i64(byte[] b, int p) {
        return ((long) i32(b, p) << 32) | (i32(b, p + 4) & 0xFFFF_FFFFL);
    }

    static String fourCc(byte[] b, int p) {
        return new String(b, p, 4, StandardCharsets.US_ASCII);
    }

    /** One box: where it starts, where its body starts and where it ends. */
    record Box(String type, int start, int body, int end) {
        static Box at(byte[] b, int pos, int limit) {
            if (limit - pos < 8) {
                throw new IllegalStateException("box header truncated at " + pos);
            }
            long size = i32(b, pos) & 0xFFFF_FFFFL;
            int header = 8;
            if (size == 1) {
                size = i64(b, pos + 8);
                header = 16;
            }
            if (size < header || pos + size > limit) {
                throw new IllegalStateException("box " + fourCc(b, pos + 4) + " of " + size + " bytes at " + pos
                        + " overruns its parent (limit " + limit + ")");
            }
            return new Box(fourCc(b, pos + 4), pos, pos + header, (int) (pos + size));
        }

        List<Box> children(byte[] b) {
            List<Box> out = new ArrayList<>();
            int p = body;
            while (p < end) {
                Box c = at(b, p, end);
                out.add(c);
                p = c.end;
            }
            return out;
        }

        Box child(byte[] b, String childType) {
            for (Box c : children(b)) {
                if (c.type.equals(childType)) {
                    return c;
                }
            }
            throw new IllegalStateException("no " + childType + " in " + type);
        }
    }
}
