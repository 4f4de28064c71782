package io.tern.hls.packager;

/** Counters a packager keeps instead of logging per frame; read them for metrics. */
public final class PackagerStats {
    long accessUnits;
    long droppedNoConfig;
    long droppedUndeclaredTrack;
    long droppedOversize;
    long droppedBeforeKeyframe;
    long droppedAudioOutsideEpoch;
    long droppedAudioOverlap;
    long droppedAudioQueueFull;
    long audioGaps;
    long timestampJumps;
    long discontinuities;
    long forcedSegmentCuts;
    long cappedFrameDurations;
    long parts;
    long segments;
    long chunkBytes;
    long memoryDrops;

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

    /** Retained objects dropped early to stay within maxRetainedBytes. */
    public long memoryDrops() {
        return memoryDrops;
    }
}
