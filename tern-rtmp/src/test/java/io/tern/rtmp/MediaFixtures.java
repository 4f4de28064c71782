package io.tern.rtmp;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.rtmp.bytes.ByteWriter;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/** H.264 and AAC configurations and frames, and the FLV tag bodies that carry them. */
public final class MediaFixtures {
    /** Parameter sets libx264 writes for 1280x720 High profile at 30 fps (as in tern-media's tests). */
    public static final byte[] SPS_720P = HexFormat.of().parseHex("6764001facb402802dd80880000003008000001e478c1950");

    public static final byte[] PPS_720P = HexFormat.of().parseHex("68ef0fcb");
    /** AAC-LC, 48 kHz, stereo. */
    public static final byte[] ASC_48K_STEREO = {0x11, (byte) 0x90};

    private MediaFixtures() {}

    public static AvcConfig avc() {
        try {
            return AvcConfig.fromParameterSets(List.of(SPS_720P), List.of(PPS_720P));
        } catch (MediaFormatException e) {
            throw new AssertionError(e);
        }
    }

    public static AacConfig aac() {
        try {
            return AacConfig.parse(ASC_48K_STEREO, 0, 2);
        } catch (MediaFormatException e) {
            throw new AssertionError(e);
        }
    }

    /** A frame in access unit form: an IDR slice or a P slice of {@code bytes} bytes, tagged by {@code seed}. */
    public static byte[] frame(boolean idr, int bytes, int seed) {
        byte[] nal = new byte[bytes];
        Arrays.fill(nal, (byte) seed);
        nal[0] = (byte) (idr ? 0x65 : 0x41);
        ByteWriter out = new ByteWriter(bytes + 4);
        out.u32(bytes).bytes(nal);
        return Arrays.copyOf(out.array(), out.length());
    }

    public static AccessUnit video(long dtsMs, long ctsMs, boolean key, int bytes) {
        return new AccessUnit(TrackType.VIDEO, dtsMs * 90, (dtsMs + ctsMs) * 90, key, frame(key, bytes, (int) dtsMs));
    }

    public static AccessUnit audio(long dtsMs, int bytes) {
        byte[] data = new byte[bytes];
        Arrays.fill(data, (byte) dtsMs);
        return new AccessUnit(TrackType.AUDIO, dtsMs * 90, dtsMs * 90, true, data);
    }

    public static byte[] avcSequenceHeaderTag() {
        return concat(new byte[] {0x17, 0, 0, 0, 0}, avc().record());
    }

    /** An AVC NALU tag with {@code lengthSize}-byte NAL lengths: an optional AUD, then one slice. */
    public static byte[] avcFrameTag(boolean key, int ctsMs, int lengthSize, boolean withAud, byte[] slice) {
        ByteWriter out = new ByteWriter(slice.length + 16);
        out.u8(key ? 0x17 : 0x27).u8(1).u24(ctsMs & 0xFFFFFF);
        if (withAud) {
            length(out, lengthSize, 2).u8(0x09).u8(0xF0);
        }
        length(out, lengthSize, slice.length).bytes(slice);
        return Arrays.copyOf(out.array(), out.length());
    }

    public static byte[] aacSequenceHeaderTag() {
        return concat(new byte[] {(byte) 0xAF, 0}, ASC_48K_STEREO);
    }

    public static byte[] aacFrameTag(byte[] frame) {
        return concat(new byte[] {(byte) 0xAF, 1}, frame);
    }

    private static ByteWriter length(ByteWriter out, int lengthSize, int value) {
        return switch (lengthSize) {
            case 1 -> out.u8(value);
            case 2 -> out.u16(value);
            default -> out.u32(value);
        };
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
