package io.tern.hls.mp4;

/**
 * The 32-bit sample flags of ISO 14496-12 §8.8.3.1: is_leading (2 bits), sample_depends_on (2),
 * sample_is_depended_on (2), sample_has_redundancy (2), padding (3), sample_is_non_sync_sample
 * (1), degradation priority (16).
 */
public final class SampleFlags {
    /** A sync sample that depends on no other (an IDR frame, or any audio frame). */
    public static final int SYNC = 2 << 24;

    /** A non-sync sample that depends on others (a P or B frame). */
    public static final int NON_SYNC = (1 << 24) | (1 << 16);

    private SampleFlags() {}

    public static int of(boolean sync) {
        return sync ? SYNC : NON_SYNC;
    }

    public static boolean isSync(int flags) {
        return (flags & (1 << 16)) == 0;
    }

    public static int dependsOn(int flags) {
        return (flags >>> 24) & 0x3;
    }
}
