package io.tern.media.codec;

import io.tern.media.MediaFormatException;

/**
 * The fields of an H.264 sequence parameter set (§7.3.2.1.1) that an origin needs: profile and
 * level for CODECS, the cropped picture size for RESOLUTION, and the frame rate when the VUI
 * carries timing. Everything else is parsed only to be skipped.
 */
public record SequenceParameterSet(
        int profileIdc, int constraintFlags, int levelIdc, int width, int height, double frameRate) {

    private static final int MAX_MACROBLOCKS_PER_SIDE = 1024; // 16384 pixels, beyond level 6.2
    private static final int EXTENDED_SAR = 255;

    /** {@code frameRate} is 0 when the VUI carries no timing information. */
    public SequenceParameterSet {}

    /** Parses a whole SPS NAL unit, header byte included. */
    public static SequenceParameterSet parse(byte[] nal, int offset, int length) throws MediaFormatException {
        if (length < 4) {
            throw new MediaFormatException("SPS of " + length + " bytes");
        }
        if ((nal[offset] & 0x1F) != 7) {
            throw new MediaFormatException("NAL unit type " + (nal[offset] & 0x1F) + " is not an SPS");
        }
        RbspReader r = new RbspReader(nal, offset + 1, length - 1);
        int profileIdc = r.bits(8);
        int constraintFlags = r.bits(8);
        int levelIdc = r.bits(8);
        r.ue("seq_parameter_set_id", 31);
        int chromaFormatIdc = 1;
        boolean separateColourPlane = false;
        if (hasChromaInfo(profileIdc)) {
            chromaFormatIdc = r.ue("chroma_format_idc", 3);
            if (chromaFormatIdc == 3) {
                separateColourPlane = r.flag();
            }
            r.ue("bit_depth_luma_minus8", 6);
            r.ue("bit_depth_chroma_minus8", 6);
            r.skip(1); // qpprime_y_zero_transform_bypass_flag
            if (r.flag()) { // seq_scaling_matrix_present_flag
                int lists = chromaFormatIdc == 3 ? 12 : 8;
                for (int i = 0; i < lists; i++) {
                    if (r.flag()) {
                        skipScalingList(r, i < 6 ? 16 : 64);
                    }
                }
            }
        }
        r.ue("log2_max_frame_num_minus4", 12);
        int picOrderCntType = r.ue("pic_order_cnt_type", 2);
        if (picOrderCntType == 0) {
            r.ue("log2_max_pic_order_cnt_lsb_minus4", 12);
        } else if (picOrderCntType == 1) {
            r.skip(1); // delta_pic_order_always_zero_flag
            r.se(); // offset_for_non_ref_pic
            r.se(); // offset_for_top_to_bottom_field
            int cycle = r.ue("num_ref_frames_in_pic_order_cnt_cycle", 255);
            for (int i = 0; i < cycle; i++) {
                r.se();
            }
        }
        r.ue("max_num_ref_frames", 32);
        r.skip(1); // gaps_in_frame_num_value_allowed_flag
        int widthMbs = r.ue("pic_width_in_mbs_minus1", MAX_MACROBLOCKS_PER_SIDE - 1) + 1;
        int heightMapUnits = r.ue("pic_height_in_map_units_minus1", MAX_MACROBLOCKS_PER_SIDE - 1) + 1;
        boolean frameMbsOnly = r.flag();
        if (!frameMbsOnly) {
            r.skip(1); // mb_adaptive_frame_field_flag
        }
        r.skip(1); // direct_8x8_inference_flag
        int fieldFactor = frameMbsOnly ? 1 : 2;
        int width = widthMbs * 16;
        int height = fieldFactor * heightMapUnits * 16;
        if (r.flag()) { // frame_cropping_flag
            int chromaArrayType = separateColourPlane ? 0 : chromaFormatIdc;
            int cropUnitX = chromaArrayType == 0 ? 1 : (chromaFormatIdc == 3 ? 1 : 2);
            int cropUnitY = (chromaArrayType == 0 ? 1 : (chromaFormatIdc == 1 ? 2 : 1)) * fieldFactor;
            long left = r.ue();
            long right = r.ue();
            long top = r.ue();
            long bottom = r.ue();
            width -= (int) Math.min(width, cropUnitX * (left + right));
            height -= (int) Math.min(height, cropUnitY * (top + bottom));
            if (width == 0 || height == 0) {
                throw new MediaFormatException("SPS cropping leaves no picture");
            }
        }
        double frameRate = 0;
        if (r.flag()) { // vui_parameters_present_flag
            frameRate = readVuiFrameRate(r);
        }
        return new SequenceParameterSet(profileIdc, constraintFlags, levelIdc, width, height, frameRate);
    }

    private static boolean hasChromaInfo(int profileIdc) {
        return switch (profileIdc) {
            case 100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135 -> true;
            default -> false;
        };
    }

    private static void skipScalingList(RbspReader r, int size) throws MediaFormatException {
        int lastScale = 8;
        int nextScale = 8;
        for (int j = 0; j < size; j++) {
            if (nextScale != 0) {
                long delta = r.se();
                if (delta < -128 || delta > 127) {
                    throw new MediaFormatException("delta_scale " + delta + " out of range");
                }
                nextScale = (int) ((lastScale + delta + 256) % 256);
            }
            lastScale = nextScale == 0 ? lastScale : nextScale;
        }
    }

    /** Reads the VUI up to its timing information (E.1.1); 0 when there is none. */
    private static double readVuiFrameRate(RbspReader r) throws MediaFormatException {
        if (r.flag()) { // aspect_ratio_info_present_flag
            if (r.bits(8) == EXTENDED_SAR) {
                r.skip(32); // sar_width, sar_height
            }
        }
        if (r.flag()) { // overscan_info_present_flag
            r.skip(1);
        }
        if (r.flag()) { // video_signal_type_present_flag
            r.skip(4); // video_format, video_full_range_flag
            if (r.flag()) { // colour_description_present_flag
                r.skip(24);
            }
        }
        if (r.flag()) { // chroma_loc_info_present_flag
            r.ue();
            r.ue();
        }
        if (!r.flag()) { // timing_info_present_flag
            return 0;
        }
        long unitsInTick = r.bits(16) & 0xFFFFL;
        unitsInTick = (unitsInTick << 16) | (r.bits(16) & 0xFFFFL);
        long timeScale = r.bits(16) & 0xFFFFL;
        timeScale = (timeScale << 16) | (r.bits(16) & 0xFFFFL);
        return unitsInTick == 0 ? 0 : timeScale / (2.0 * unitsInTick);
    }
}
