package io.tern.hls.packager;

import io.tern.media.MediaTime;
import io.tern.media.codec.AacConfig;

/**
 * The stream's durations. EXT-X-TARGETDURATION comes from the configuration and never changes;
 * PART-TARGET is fixed once, when the first frame's duration is known, because parts are whole
 * frames: a part of N frames is as close to the configured target as frames allow, and parts
 * other than a segment's last stay within 85% of PART-TARGET (§4.4.4.9 asks all parts but the
 * last to be at least 85% of it, §4.4.3.7 that none exceed it).
 *
 * <p>Durations in 90 kHz ticks unless named otherwise; {@code ...E5} values are in units of
 * 10 µs, the five decimals playlists are written with.
 */
final class Timing {
    private static final long TICKS = MediaTime.TICKS_PER_SECOND;

    final int targetDurationS;
    final long segmentTargetTicks;
    /** A segment must stay below TARGETDURATION + 0.5 s so that its rounded EXTINF fits. */
    final long maxSegmentTicks;

    final long minSegmentTicks;
    final long configuredPartTicks;

    private boolean partTargetFixed;
    /** Longest video part, ticks. */
    private long videoPartLimit;
    /** Longest audio part in samples at {@link #audioRateHz}, for a stream without video. */
    private long audioPartLimitSamples;

    private int audioRateHz;
    private boolean videoLed;
    private long videoFrameTicks;
    /** The declared PART-TARGET, rounded up to 10 µs. */
    private long partTargetE5;

    Timing(PackagerConfig config, StreamLayout layout, int audioFrameTicks) {
        this.targetDurationS = config.targetDurationSeconds();
        this.segmentTargetTicks = MediaTime.fromMillis(config.segmentTargetMs());
        long slack = layout.hasVideo() && layout.hasAudio() ? audioFrameTicks : 0;
        this.maxSegmentTicks = targetDurationS * TICKS + TICKS / 2 - 1 - slack;
        this.minSegmentTicks = segmentTargetTicks / 2;
        this.configuredPartTicks = MediaTime.fromMillis(config.partTargetMs());
    }

    boolean partTargetFixed() {
        return partTargetFixed;
    }

    /**
     * Fixes PART-TARGET from the video frame duration: N = round(target / frame) frames, plus a
     * quarter frame so that millisecond-rounded timestamps (RTMP) still fit N frames a part.
     * Audio parts then take as many whole AAC frames as fit, so they never exceed it either.
     */
    void fixFromVideo(long frameTicks) {
        long frames = Math.max(1, Math.round((double) configuredPartTicks / frameTicks));
        videoFrameTicks = frameTicks;
        videoPartLimit = frames * frameTicks + frameTicks / 4;
        partTargetE5 = ceilE5(videoPartLimit, TICKS);
        videoLed = true;
        partTargetFixed = true;
    }

    /** Fixes PART-TARGET for a stream without video: whole AAC frames nearest the target. */
    void fixFromAudio(AacConfig audio) {
        long frameSamples = AacConfig.SAMPLES_PER_FRAME;
        double targetSamples = (double) configuredPartTicks * audio.sampleRateHz() / TICKS;
        long frames = Math.max(1, Math.round(targetSamples / frameSamples));
        audioPartLimitSamples = frames * frameSamples;
        audioRateHz = audio.sampleRateHz();
        partTargetE5 = ceilE5(audioPartLimitSamples, audio.sampleRateHz());
        partTargetFixed = true;
    }

    /** The nominal video frame duration PART-TARGET was derived from, or 0. */
    long videoFrameTicks() {
        return videoFrameTicks;
    }

    long videoPartLimit() {
        return videoPartLimit;
    }

    /**
     * Longest audio part, in samples at {@code sampleRateHz}: as many whole AAC frames as fit in
     * a video part (so never more than PART-TARGET), or the audio-only part size.
     */
    long audioPartLimitSamples(int sampleRateHz) {
        long fitting;
        if (videoLed) {
            fitting = MediaTime.rescale(videoPartLimit, sampleRateHz);
        } else if (sampleRateHz == audioRateHz) {
            return audioPartLimitSamples;
        } else {
            fitting = partTargetE5 * sampleRateHz / 100_000;
        }
        return Math.max(1, fitting / AacConfig.SAMPLES_PER_FRAME) * AacConfig.SAMPLES_PER_FRAME;
    }

    long partTargetE5() {
        return partTargetE5;
    }

    /** §6.2.5.2: three divided by the part target when it is under a second, else three. */
    long advancePartLimit() {
        return partTargetE5 < 100_000 ? (3 * 100_000L + partTargetE5 - 1) / partTargetE5 : 3;
    }

    long targetDurationTicks() {
        return targetDurationS * TICKS;
    }

    /** {@code value / timescale} seconds rounded up to 10 µs. */
    static long ceilE5(long value, long timescale) {
        return Math.ceilDiv(Math.multiplyExact(value, 100_000L), timescale);
    }

    /** {@code value / timescale} seconds rounded half up to 10 µs. */
    static long roundE5(long value, long timescale) {
        return Math.floorDiv(Math.multiplyExact(value, 200_000L) + timescale, 2 * timescale);
    }
}
