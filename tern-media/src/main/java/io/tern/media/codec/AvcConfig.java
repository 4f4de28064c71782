package io.tern.media.codec;

import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * An H.264 decoder configuration: the AVCDecoderConfigurationRecord of ISO 14496-15 §5.3.3.1
 * with its parameter sets, and what the first SPS says about the picture.
 *
 * <p>{@link #record()} always declares 4-byte NAL unit lengths, the form of every {@link
 * io.tern.media.AccessUnit}; {@link #sourceNalLengthSize()} is what the publisher used, so an
 * ingest knows whether to rewrite its frames.
 */
public final class AvcConfig implements CodecConfig {
    private static final int MAX_PARAMETER_SETS = 32;

    private final List<byte[]> sps;
    private final List<byte[]> pps;
    private final int sourceNalLengthSize;
    private final SequenceParameterSet info;
    private final byte[] record;

    private AvcConfig(List<byte[]> sps, List<byte[]> pps, int sourceNalLengthSize) throws MediaFormatException {
        if (sps.isEmpty() || pps.isEmpty()) {
            throw new MediaFormatException("H.264 configuration needs an SPS and a PPS");
        }
        this.sps = List.copyOf(sps);
        this.pps = List.copyOf(pps);
        this.sourceNalLengthSize = sourceNalLengthSize;
        byte[] first = sps.get(0);
        this.info = SequenceParameterSet.parse(first, 0, first.length);
        this.record = encodeRecord();
    }

    /** Parses an AVCDecoderConfigurationRecord (the payload of an RTMP AVC sequence header). */
    public static AvcConfig parseRecord(byte[] buf, int offset, int length) throws MediaFormatException {
        Cursor c = new Cursor(buf, offset, length);
        int version = c.u8();
        if (version != 1) {
            throw new MediaFormatException("AVC configuration version " + version);
        }
        c.skip(3); // profile, compatibility, level: taken from the SPS itself
        int nalLengthSize = (c.u8() & 0x03) + 1;
        if (nalLengthSize == 3) {
            throw new MediaFormatException("NAL unit length size 3 is not allowed");
        }
        List<byte[]> sps = c.parameterSets(c.u8() & 0x1F, 7);
        List<byte[]> pps = c.parameterSets(c.u8(), 8);
        return new AvcConfig(sps, pps, nalLengthSize);
    }

    /** Builds the configuration from in-band parameter sets (MPEG-TS carries them in the stream). */
    public static AvcConfig fromParameterSets(List<byte[]> sps, List<byte[]> pps) throws MediaFormatException {
        if (sps.size() > MAX_PARAMETER_SETS || pps.size() > MAX_PARAMETER_SETS) {
            throw new MediaFormatException("too many parameter sets");
        }
        return new AvcConfig(sps, pps, 4);
    }

    @Override
    public TrackType track() {
        return TrackType.VIDEO;
    }

    /** {@code avc1.PPCCLL}: profile_idc, the constraint flags byte and level_idc of the SPS. */
    @Override
    public String codecs() {
        return String.format("avc1.%02x%02x%02x", info.profileIdc(), info.constraintFlags(), info.levelIdc());
    }

    public SequenceParameterSet sequenceParameterSet() {
        return info;
    }

    public int width() {
        return info.width();
    }

    public int height() {
        return info.height();
    }

    /** Frames per second from the SPS's VUI timing, or 0 when it has none. */
    public double frameRate() {
        return info.frameRate();
    }

    public List<byte[]> sps() {
        return sps;
    }

    public List<byte[]> pps() {
        return pps;
    }

    public int sourceNalLengthSize() {
        return sourceNalLengthSize;
    }

    /** The record for an {@code avcC} box, with 4-byte NAL unit lengths; do not modify. */
    public byte[] record() {
        return record;
    }

    private byte[] encodeRecord() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        byte[] first = sps.get(0);
        out.write(1);
        out.write(first[1]);
        out.write(first[2]);
        out.write(first[3]);
        out.write(0xFC | 3); // reserved bits, lengthSizeMinusOne = 3
        out.write(0xE0 | sps.size());
        for (byte[] s : sps) {
            writeParameterSet(out, s);
        }
        out.write(pps.size());
        for (byte[] p : pps) {
            writeParameterSet(out, p);
        }
        return out.toByteArray();
    }

    private static void writeParameterSet(ByteArrayOutputStream out, byte[] set) {
        out.write(set.length >>> 8);
        out.write(set.length);
        out.writeBytes(set);
    }

    /** Two configurations are equal when their records are: the same parameter sets. */
    @Override
    public boolean equals(Object o) {
        return o instanceof AvcConfig other && Arrays.equals(record, other.record);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(record);
    }

    @Override
    public String toString() {
        return codecs() + " " + width() + "x" + height()
                + (frameRate() > 0 ? String.format(" %.3f fps", frameRate()) : "");
    }

    /** A bounds-checked reader over the record. */
    private static final class Cursor {
        private final byte[] buf;
        private final int end;
        private int pos;

        Cursor(byte[] buf, int offset, int length) throws MediaFormatException {
            if (offset < 0 || length < 0 || offset + length > buf.length) {
                throw new MediaFormatException("AVC configuration range out of bounds");
            }
            this.buf = buf;
            this.pos = offset;
            this.end = offset + length;
        }

        int u8() throws MediaFormatException {
            need(1);
            return buf[pos++] & 0xFF;
        }

        void skip(int n) throws MediaFormatException {
            need(n);
            pos += n;
        }

        List<byte[]> parameterSets(int count, int nalType) throws MediaFormatException {
            byte[][] sets = new byte[count][];
            for (int i = 0; i < count; i++) {
                need(2);
                int len = ((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF);
                pos += 2;
                need(len);
                if (len == 0 || (buf[pos] & 0x1F) != nalType) {
                    throw new MediaFormatException("parameter set " + i + " is not NAL unit type " + nalType);
                }
                sets[i] = Arrays.copyOfRange(buf, pos, pos + len);
                pos += len;
            }
            return List.of(sets);
        }

        private void need(int n) throws MediaFormatException {
            if (end - pos < n) {
                throw new MediaFormatException("AVC configuration truncated");
            }
        }
    }
}
