package io.tern.hls.mp4;

import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes an initialization segment ({@code ftyp} + {@code moov}) for fragmented MP4 (ISO
 * 14496-12 §8.8, CMAF ISO 23000-19 §7.3): every track with an empty sample table, and an {@code
 * mvex} with one {@code trex} per track so that all samples live in movie fragments.
 *
 * <p>Every box size is computed from the configuration before a byte is written.
 */
public final class InitSegmentWriter {
    private static final int[] UNITY_MATRIX = {0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000};
    private static final byte[] VIDEO_HANDLER = "VideoHandler".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SOUND_HANDLER = "SoundHandler".getBytes(StandardCharsets.US_ASCII);
    private static final int MOVIE_TIMESCALE = 1000;
    private static final int LANGUAGE_UND = 0x55C4; // ISO 639-2 "und", packed 5 bits a letter
    private static final int MAX_ASC_BYTES = 64; // keeps every esds descriptor length in one byte

    private static final int FTYP_HEADER = 16;
    private static final int MVHD = 108;
    private static final int TKHD = 92;
    private static final int MDHD = 32;
    private static final int VMHD = 20;
    private static final int SMHD = 16;
    private static final int DINF = 36;
    private static final int EMPTY_TABLE = 16; // stts, stsc, stco: full box + entry_count 0
    private static final int STSZ = 20;
    private static final int TREX = 32;
    private static final int AVC1_FIXED = 86;
    private static final int MP4A_FIXED = 36;

    /** Brands of a CMAF header: one track per file. */
    public static final List<String> CMAF_BRANDS = List.of("iso6", "cmfc", "mp41");

    /** Brands of a multi-track fragmented MP4 file, such as a recording. */
    public static final List<String> FRAGMENTED_BRANDS = List.of("iso6", "mp41");

    private InitSegmentWriter() {}

    /** A CMAF header for one HLS rendition. */
    public static byte[] cmafHeader(Mp4Track track) {
        return write(List.of(track), CMAF_BRANDS);
    }

    /** An initialization segment for {@code tracks}, major brand {@code iso6}. */
    public static byte[] write(List<Mp4Track> tracks, List<String> compatibleBrands) {
        if (tracks.isEmpty()) {
            throw new IllegalArgumentException("no tracks");
        }
        int ftyp = FTYP_HEADER + 4 * compatibleBrands.size();
        int moov = 8 + MVHD + 8 + TREX * tracks.size();
        for (Mp4Track t : tracks) {
            moov += trakSize(t);
        }
        ByteWriter w = new ByteWriter(ftyp + moov);
        w.box(ftyp, "ftyp").fourCc("iso6").u32(0);
        compatibleBrands.forEach(w::fourCc);
        w.box(moov, "moov");
        writeMvhd(w, tracks);
        for (Mp4Track t : tracks) {
            writeTrak(w, t);
        }
        w.box(8 + TREX * tracks.size(), "mvex");
        for (Mp4Track t : tracks) {
            w.fullBox(TREX, "trex", 0, 0).u32(t.trackId()).u32(1).u32(0).u32(0).u32(0);
        }
        return w.finish();
    }

    private static int trakSize(Mp4Track t) {
        return 8 + TKHD + mdiaSize(t);
    }

    private static int mdiaSize(Mp4Track t) {
        return 8 + MDHD + hdlrSize(t) + minfSize(t);
    }

    private static int hdlrSize(Mp4Track t) {
        return 33 + handlerName(t).length;
    }

    private static int minfSize(Mp4Track t) {
        int mediaHeader = isVideo(t) ? VMHD : SMHD;
        return 8 + mediaHeader + DINF + stblSize(t);
    }

    private static int stblSize(Mp4Track t) {
        return 8 + stsdSize(t) + EMPTY_TABLE + EMPTY_TABLE + STSZ + EMPTY_TABLE;
    }

    private static int stsdSize(Mp4Track t) {
        return 16 + sampleEntrySize(t);
    }

    private static int sampleEntrySize(Mp4Track t) {
        return switch (t.config()) {
            case AvcConfig avc -> AVC1_FIXED + 8 + avc.record().length;
            case AacConfig aac -> MP4A_FIXED + esdsSize(aac);
        };
    }

    private static int esdsSize(AacConfig aac) {
        int asc = aac.audioSpecificConfig().length;
        if (asc > MAX_ASC_BYTES) {
            throw new IllegalArgumentException("AudioSpecificConfig of " + asc + " bytes");
        }
        return 37 + asc;
    }

    private static boolean isVideo(Mp4Track t) {
        return t.config() instanceof AvcConfig;
    }

    private static byte[] handlerName(Mp4Track t) {
        return isVideo(t) ? VIDEO_HANDLER : SOUND_HANDLER;
    }

    private static void writeMvhd(ByteWriter w, List<Mp4Track> tracks) {
        int nextTrackId = 1;
        for (Mp4Track t : tracks) {
            nextTrackId = Math.max(nextTrackId, t.trackId() + 1);
        }
        w.fullBox(MVHD, "mvhd", 0, 0)
                .u32(0) // creation_time
                .u32(0) // modification_time
                .u32(MOVIE_TIMESCALE)
                .u32(0) // duration: unknown, the samples are in fragments
                .u32(0x0001_0000) // rate 1.0
                .u16(0x0100) // volume 1.0
                .zeros(2 + 8);
        matrix(w);
        w.zeros(24).u32(nextTrackId);
    }

    private static void writeTrak(ByteWriter w, Mp4Track t) {
        w.box(trakSize(t), "trak");
        int width = 0;
        int height = 0;
        if (t.config() instanceof AvcConfig avc) {
            width = avc.width();
            height = avc.height();
        }
        w.fullBox(TKHD, "tkhd", 0, 0x000003) // enabled, in movie
                .u32(0)
                .u32(0)
                .u32(t.trackId())
                .u32(0) // reserved
                .u32(0) // duration
                .zeros(8)
                .u16(0) // layer
                .u16(isVideo(t) ? 0 : 1) // alternate_group
                .u16(isVideo(t) ? 0 : 0x0100) // volume
                .u16(0);
        matrix(w);
        w.u32((long) width << 16).u32((long) height << 16);

        w.box(mdiaSize(t), "mdia");
        w.fullBox(MDHD, "mdhd", 0, 0)
                .u32(0)
                .u32(0)
                .u32(t.timescale())
                .u32(0)
                .u16(LANGUAGE_UND)
                .u16(0);
        byte[] name = handlerName(t);
        w.fullBox(hdlrSize(t), "hdlr", 0, 0)
                .u32(0)
                .fourCc(isVideo(t) ? "vide" : "soun")
                .zeros(12)
                .bytes(name)
                .u8(0);

        w.box(minfSize(t), "minf");
        if (isVideo(t)) {
            w.fullBox(VMHD, "vmhd", 0, 1).zeros(8);
        } else {
            w.fullBox(SMHD, "smhd", 0, 0).zeros(4);
        }
        w.box(DINF, "dinf").fullBox(28, "dref", 0, 0).u32(1).fullBox(12, "url ", 0, 1);

        w.box(stblSize(t), "stbl");
        w.fullBox(stsdSize(t), "stsd", 0, 0).u32(1);
        switch (t.config()) {
            case AvcConfig avc -> writeAvc1(w, t, avc);
            case AacConfig aac -> writeMp4a(w, t, aac);
        }
        w.fullBox(EMPTY_TABLE, "stts", 0, 0).u32(0);
        w.fullBox(EMPTY_TABLE, "stsc", 0, 0).u32(0);
        w.fullBox(STSZ, "stsz", 0, 0).u32(0).u32(0);
        w.fullBox(EMPTY_TABLE, "stco", 0, 0).u32(0);
    }

    /** VisualSampleEntry (ISO 14496-12 §12.1.3) with the avcC record (ISO 14496-15 §5.4). */
    private static void writeAvc1(ByteWriter w, Mp4Track t, AvcConfig avc) {
        byte[] record = avc.record();
        w.box(sampleEntrySize(t), "avc1")
                .zeros(6)
                .u16(1) // data_reference_index
                .zeros(16) // pre_defined, reserved, pre_defined[3]
                .u16(avc.width())
                .u16(avc.height())
                .u32(0x0048_0000) // 72 dpi
                .u32(0x0048_0000)
                .u32(0)
                .u16(1) // frame_count
                .zeros(32) // compressorname
                .u16(0x0018) // depth
                .u16(0xFFFF); // pre_defined = -1
        w.box(8 + record.length, "avcC").bytes(record);
    }

    /** AudioSampleEntry (ISO 14496-12 §12.2.3) with an esds (ISO 14496-14 §5.6, 14496-1 §7.2.6). */
    private static void writeMp4a(ByteWriter w, Mp4Track t, AacConfig aac) {
        byte[] asc = aac.audioSpecificConfig();
        int channels = aac.channels() == 0 ? 2 : aac.channels();
        int rate = aac.sampleRateHz();
        w.box(sampleEntrySize(t), "mp4a")
                .zeros(6)
                .u16(1) // data_reference_index
                .zeros(8)
                .u16(channels)
                .u16(16) // samplesize
                .zeros(4) // pre_defined, reserved
                .u32(rate < 0x1_0000 ? (long) rate << 16 : 0); // 16.16; mdhd carries larger rates
        int dsi = 2 + asc.length;
        int dcd = 2 + 13 + dsi;
        int es = 2 + 3 + dcd + 3;
        w.fullBox(esdsSize(aac), "esds", 0, 0)
                .u8(0x03) // ES_DescrTag
                .u8(es - 2)
                .u16(t.trackId()) // ES_ID
                .u8(0) // no stream dependence, URL or OCR stream
                .u8(0x04) // DecoderConfigDescrTag
                .u8(dcd - 2)
                .u8(0x40) // objectTypeIndication: ISO/IEC 14496-3 audio
                .u8((0x05 << 2) | 0x01) // streamType audio, upStream 0, reserved 1
                .u24(0) // bufferSizeDB
                .u32(0) // maxBitrate
                .u32(0) // avgBitrate
                .u8(0x05) // DecSpecificInfoTag
                .u8(asc.length)
                .bytes(asc)
                .u8(0x06) // SLConfigDescrTag
                .u8(1)
                .u8(0x02); // predefined: MP4
    }

    private static void matrix(ByteWriter w) {
        for (int v : UNITY_MATRIX) {
            w.u32(v & 0xFFFF_FFFFL);
        }
    }
}
