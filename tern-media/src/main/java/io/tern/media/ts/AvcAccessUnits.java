package io.tern.media.ts;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * H.264 in MPEG-TS is Annex B: NAL units behind 00 00 01 or 00 00 00 01 start codes. This turns one
 * PES payload (one access unit) into the 4-byte length-prefixed form of every {@code AccessUnit},
 * dropping access unit delimiters and filler and taking SPS/PPS out into the configuration.
 */
final class AvcAccessUnits {
    static final int NAL_IDR = 5;
    static final int NAL_SPS = 7;
    static final int NAL_PPS = 8;
    static final int NAL_AUD = 9;
    static final int NAL_FILLER = 12;

    final List<byte[]> sps = new ArrayList<>(1);
    final List<byte[]> pps = new ArrayList<>(1);
    boolean keyframe;
    int nalUnits;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);

    /** Parses {@code b[0, len)}; returns the frame bytes (possibly empty). */
    byte[] convert(byte[] b, int len) {
        sps.clear();
        pps.clear();
        keyframe = false;
        nalUnits = 0;
        out.reset();
        int start = nextStart(b, 0, len);
        while (start >= 0) {
            int next = nextStart(b, start, len);
            int end = next < 0 ? len : next - 3;
            // A four-byte start code leaves its leading zero at the end of the previous unit.
            while (end > start && b[end - 1] == 0) {
                end--;
            }
            if (end > start) {
                unit(b, start, end - start);
            }
            start = next;
        }
        return out.toByteArray();
    }

    /** The index just after the next 00 00 01 at or after {@code from}, or -1. */
    private static int nextStart(byte[] b, int from, int len) {
        for (int i = from; i + 2 < len; i++) {
            if (b[i + 2] > 1) {
                i += 2;
            } else if (b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1) {
                return i + 3;
            }
        }
        return -1;
    }

    private void unit(byte[] b, int off, int len) {
        int type = b[off] & 0x1F;
        switch (type) {
            case NAL_AUD, NAL_FILLER -> {
                return;
            }
            case NAL_SPS -> {
                sps.add(java.util.Arrays.copyOfRange(b, off, off + len));
                return;
            }
            case NAL_PPS -> {
                pps.add(java.util.Arrays.copyOfRange(b, off, off + len));
                return;
            }
            case NAL_IDR -> keyframe = true;
            default -> {}
        }
        nalUnits++;
        out.write(len >>> 24);
        out.write(len >>> 16);
        out.write(len >>> 8);
        out.write(len);
        out.write(b, off, len);
    }
}
