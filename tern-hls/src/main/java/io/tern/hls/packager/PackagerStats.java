package io.tern.hls.packager;

/**
 * Counters a packager keeps instead of logging per frame; metrics read them directly. Only the
 * packager's thread writes them (a plain increment, one writer); they are volatile so that a
 * scraper on another thread reads whole, current values.
 */
public final class PackagerStats {
    volatile long accessUnits;
    volatile long droppedNoConfig;
    volatile long droppedUndeclaredTrack;
    volatile long droppedOversize;
    volatile long droppedBeforeKeyframe;
    volatile long droppedAudioOutsideEpoch;
    volatile long droppedAudioOverlap;
    volatile long droppedAudioQueueFull;
    volatile long audioGaps;
    volatile long timestampJumps;
    volatile long discontinuities;
    volatile long forcedSegmentCuts;
    volatile long cappedFrameDurations;
    volatile long parts;
    volatile long segments;
    volatile long chunkBytes;
    volatile long memoryDrops;

    public long accessUnits() {
        return accessUnits;
    }

    /** Frames of a track with no configuration yet. */
    public long droppedNoConfig() {
        return droppedNoConfig;
    }

    /** Frames of a track the stream layout does not declare. */
    public long droppedUndeclaredTrack() {
        return droppedUndeclaredTrack;
    }

    public long droppedOversize() {
        return droppedOversize;
    }

    /** Video frames dropped while waiting for a keyframe (at the start, after a discontinuity). */
    public long droppedBeforeKeyframe() {
        return droppedBeforeKeyframe;
    }

    /** Audio frames outside the stretch of stream they belong to (before its first keyframe, after its end). */
    public long droppedAudioOutsideEpoch() {
        return droppedAudioOutsideEpoch;
    }

    /** Audio frames whose timestamps overlap frames already written (a fast audio clock). */
    public long droppedAudioOverlap() {
        return droppedAudioOverlap;
    }

    /** Audio frames dropped because video stopped advancing and the queue waiting for it was full. */
    public long droppedAudioQueueFull() {
        return droppedAudioQueueFull;
    }

    /** Audio timestamp gaps longer than two frames, written as gaps in the audio timeline. */
    public long audioGaps() {
        return audioGaps;
    }

    public long timestampJumps() {
        return timestampJumps;
    }

    public long discontinuities() {
        return discontinuities;
    }

    /** Segments cut at a non-keyframe because no keyframe came before TARGETDURATION ran out. */
    public long forcedSegmentCuts() {
        return forcedSegmentCuts;
    }

    /** Frames whose duration was shortened to keep their part within PART-TARGET. */
    public long cappedFrameDurations() {
        return cappedFrameDurations;
    }

    public long parts() {
        return parts;
    }

    public long segments() {
        return segments;
    }

    public long chunkBytes() {
        return chunkBytes;
    }

    /** Frames dropped for any reason (no configuration, oversized, before a keyframe, audio ones). */
    public long framesDropped() {
        return droppedNoConfig
                + droppedUndeclaredTrack
                + droppedOversize
                + droppedBeforeKeyframe
                + droppedAudioOutsideEpoch
                + droppedAudioOverlap
                + droppedAudioQueueFull;
    }

    /**
     * Adds {@code other}'s counters to these: totals over packagers that are gone. Only one thread
     * at a time may call it (its owner's lock).
     */
    public void add(PackagerStats other) {
        accessUnits += other.accessUnits;
        droppedNoConfig += other.droppedNoConfig;
        droppedUndeclaredTrack += other.droppedUndeclaredTrack;
        droppedOversize += other.droppedOversize;
        droppedBeforeKeyframe += other.droppedBeforeKeyframe;
        droppedAudioOutsideEpoch += other.droppedAudioOutsideEpoch;
        droppedAudioOverlap += other.droppedAudioOverlap;
        droppedAudioQueueFull += other.droppedAudioQueueFull;
        audioGaps += other.audioGaps;
        timestampJumps += other.timestampJumps;
        discontinuities += other.discontinuities;
        forcedSegmentCuts += other.forcedSegmentCuts;
        cappedFrameDurations += other.cappedFrameDurations;
        parts += other.parts;
        segments += other.segments;
        chunkBytes += other.chunkBytes;
        memoryDrops += other.memoryDrops;
    }

    /** Retained objects dropped early to stay within maxRetainedBytes. */
    public long memoryDrops() {
        return memoryDrops;
    }
}
