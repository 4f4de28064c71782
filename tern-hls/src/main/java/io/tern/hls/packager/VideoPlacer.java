package io.tern.hls.packager;

import io.tern.hls.media.InitSegment;
import io.tern.hls.mp4.SampleFlags;
import io.tern.media.AccessUnit;
import io.tern.media.MediaTime;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;

/**
 * Places video frames: the leader of a stream with video. It decides every cut.
 *
 * <p>A frame is placed when the next one arrives, because only then is its duration known (a
 * fragment states each sample's duration). The decisions, per frame:
 *
 * <ul>
 *   <li><b>Segment</b>: cut before a keyframe once the segment has reached its target, or earlier
 *       if waiting for the next keyframe (one GOP away) would take it past TARGETDURATION + ½ s;
 *       cut before any frame at all if including it would (§6.2.1: EXTINF rounded must not exceed
 *       TARGETDURATION). So segments start with keyframes unless the GOP is longer than that.
 *   <li><b>Part</b>: cut before a frame that would take the part past PART-TARGET.
 *   <li><b>Discontinuity</b>: a timestamp that goes backwards or jumps further than {@code
 *       discontinuityGapMs}, or a new codec configuration, ends the epoch; frames are dropped
 *       until a keyframe, which opens the next epoch. After a jump the output timeline continues
 *       where the stream had got to, so the output never goes backwards and a recording of it is
 *       one valid file.
 * </ul>
 */
final class VideoPlacer {
    /** What the video placer needs to know about the audio beside it. */
    interface Follower {
        /** The audio configuration, or null (none, or not yet). */
        AacConfig audioConfig();

        /** How far audio has been written, output 90 kHz ticks, or -1. */
        long audioEndTicks();
    }

    private record Frame(AccessUnit au, InitSegment init, long out, long wallMs, SegmentSlot epochSlot) {}

    private final Timing timing;
    private final StreamTimeline timeline;
    private final Rendition video;
    private final PackagerStats stats;
    private final Follower follower;
    private final long gapTicks;

    private Frame pending;
    private long lastIn = Long.MIN_VALUE;
    private long offset;
    private long lastDuration;
    private long lastKeyOut = -1;
    private long gopTicks;
    private boolean waitingForKeyframe = true;
    private Epoch.Reason nextReason = Epoch.Reason.START;
    private boolean configPending;
    private boolean epochRequested;
    private boolean ended;
    private long frontierWallMs;

    VideoPlacer(
            PackagerConfig config,
            Timing timing,
            StreamTimeline timeline,
            Rendition video,
            PackagerStats stats,
            Follower follower) {
        this.timing = timing;
        this.timeline = timeline;
        this.video = video;
        this.stats = stats;
        this.follower = follower;
        this.gapTicks = MediaTime.fromMillis(config.discontinuityGapMs());
    }

    /** A new configuration applies from the next frame: it opens a new epoch with a new init segment. */
    void configChanged() {
        // Between epochs the next one starts with the new init segment anyway.
        configPending = timeline.started() && !waitingForKeyframe;
    }

    /** The follower changed: open a new epoch at the next keyframe, the timeline unchanged. */
    void requestEpoch() {
        epochRequested = true;
    }

    void onFrame(AccessUnit au, long wallMs) {
        long dts = au.dts();
        boolean jump = lastIn != Long.MIN_VALUE && (dts <= lastIn || dts - lastIn > gapTicks);
        lastIn = dts;
        if (jump) {
            stats.timestampJumps++;
            breakEpoch(lastDuration, Epoch.Reason.TIMESTAMP_JUMP);
        } else if (configPending) {
            breakEpoch(pending == null ? lastDuration : dts + offset - pending.out(), Epoch.Reason.LEADER_CODEC_CHANGE);
        } else if (epochRequested && au.keyframe() && pending != null) {
            breakEpoch(dts + offset - pending.out(), Epoch.Reason.FOLLOWER_CHANGE);
        }
        if (waitingForKeyframe) {
            if (!au.keyframe()) {
                stats.droppedBeforeKeyframe++;
                return;
            }
            openEpoch(au, wallMs);
            return;
        }
        long out = dts + offset;
        place(pending, out - pending.out());
        pending = new Frame(au, video.latestInit(), out, wallMs, null);
        frontierWallMs = wallMs;
    }

    /** Ends the current epoch after placing the pending frame with {@code lastFrameDuration}. */
    private void breakEpoch(long lastFrameDuration, Epoch.Reason reason) {
        configPending = false;
        epochRequested = false;
        if (pending != null) {
            place(pending, Math.max(1, lastFrameDuration));
            pending = null;
        }
        if (video.hasSamples() && !waitingForKeyframe) {
            video.closeSegment();
            timeline.endEpoch(video.edgeTicks());
        }
        waitingForKeyframe = true;
        // A timestamp jump outranks a codec change: it also needs a new timeline offset.
        if (nextReason != Epoch.Reason.TIMESTAMP_JUMP || !timeline.started()) {
            nextReason = timeline.started() ? reason : Epoch.Reason.START;
        }
    }

    private void openEpoch(AccessUnit au, long wallMs) {
        long start;
        Epoch.Reason reason = timeline.started() ? nextReason : Epoch.Reason.START;
        if (reason == Epoch.Reason.START) {
            start = 0;
        } else if (reason == Epoch.Reason.TIMESTAMP_JUMP) {
            start = video.edgeTicks();
            long audioEnd = follower.audioEndTicks();
            if (audioEnd >= 0) {
                // Audio of the old epoch may still arrive up to half a frame past the video's
                // end, and audio of the new one starts up to half a frame before its keyframe.
                start = Math.max(start, audioEnd) + audioFrameTicks();
            }
        } else {
            start = Math.max(au.dts() + offset, video.edgeTicks());
        }
        offset = start - au.dts();
        Epoch epoch = timeline.openEpoch(reason, start, wallMs, offset);
        if (reason != Epoch.Reason.START) {
            stats.discontinuities++;
        }
        if (reason == Epoch.Reason.LEADER_CODEC_CHANGE && timeline.epochCount() > 1) {
            Epoch before = timeline.epoch(timeline.epochCount() - 2);
            if (before.followerAssigned()) {
                epoch.assignFollower(before.followerJumps, before.followerConfigs, before.followerOffset);
            }
        }
        waitingForKeyframe = false;
        epochRequested = false;
        nextReason = Epoch.Reason.START;
        lastKeyOut = -1;
        gopTicks = 0;
        pending = new Frame(au, video.latestInit(), start, wallMs, timeline.lastSlot());
        frontierWallMs = wallMs;
    }

    private long audioFrameTicks() {
        AacConfig audio = follower.audioConfig();
        return audio == null
                ? 0
                : (long) AacConfig.SAMPLES_PER_FRAME * MediaTime.TICKS_PER_SECOND / audio.sampleRateHz();
    }

    private void place(Frame f, long duration) {
        if (!timing.partTargetFixed()) {
            timing.fixFromVideo(nominalFrameTicks(f, duration));
        }
        long limit = timing.videoPartLimit();
        AccessUnit au = f.au();
        Epoch epoch = timeline.currentEpoch();
        if (f.epochSlot() != null) {
            video.startSegment(f.epochSlot(), f.out(), epoch.programDateTimeMs(f.out()), f.init());
        } else if (cutSegment(f, duration)) {
            if (!au.keyframe()) {
                stats.forcedSegmentCuts++;
            }
            SegmentSlot slot = timeline.cut(f.out());
            video.startSegment(slot, f.out(), epoch.programDateTimeMs(f.out()), f.init());
        } else {
            long partStart = video.partStart();
            if (partStart >= 0 && f.out() + duration - partStart > limit) {
                video.cutPart();
            }
        }
        if (duration > limit) {
            // One frame longer than a part (a stall shorter than a jump): shorten its stated
            // duration so its part stays within PART-TARGET; the next frame's tfdt says where it is.
            duration = limit;
            stats.cappedFrameDurations++;
        }
        int cto = (int) Math.min(Integer.MAX_VALUE, au.compositionOffset());
        video.add(au.data(), f.out(), (int) duration, SampleFlags.of(au.keyframe()), cto);
        lastDuration = duration;
        if (au.keyframe()) {
            if (lastKeyOut >= 0) {
                gopTicks = f.out() - lastKeyOut;
            }
            lastKeyOut = f.out();
        }
    }

    private boolean cutSegment(Frame f, long duration) {
        long elapsed = f.out() - video.openSegment().startTime();
        if (elapsed + duration > timing.maxSegmentTicks) {
            return true;
        }
        if (!f.au().keyframe() || elapsed < timing.minSegmentTicks) {
            return false;
        }
        return elapsed >= timing.segmentTargetTicks || (gopTicks > 0 && elapsed + gopTicks > timing.maxSegmentTicks);
    }

    /** The SPS's frame duration when it agrees with the measured one, else the measured one. */
    private static long nominalFrameTicks(Frame f, long measured) {
        AvcConfig avc = (AvcConfig) f.init().track().config();
        double fps = avc.frameRate();
        if (fps > 0) {
            long fromSps = Math.round(MediaTime.TICKS_PER_SECOND / fps);
            if (Math.abs(fromSps - measured) * 4 < measured) {
                return fromSps;
            }
        }
        return Math.max(1, measured);
    }

    /** The publisher is gone: place the last frame and close. */
    void end() {
        placeLast();
        video.finish();
        // The epoch stays open: audio that arrived for the last frames (up to the end of its
        // own timeline) is still written.
    }

    /**
     * Places the last frame without closing the rendition: a muxed rendition takes the audio of
     * the last frames first ({@link #frontier()} is past everything now).
     */
    void placeLast() {
        if (pending != null) {
            place(pending, Math.max(1, lastDuration == 0 ? 3000 : lastDuration));
            pending = null;
        }
        ended = true;
    }

    boolean ended() {
        return ended;
    }

    /**
     * Output time before which every cut is decided: the frame not yet placed starts there.
     * {@link Long#MIN_VALUE} while there is none (between epochs), {@link Long#MAX_VALUE} after
     * the end.
     */
    long frontier() {
        if (ended) {
            return Long.MAX_VALUE;
        }
        return pending == null ? Long.MIN_VALUE : pending.out();
    }

    /** When the frame at the frontier arrived (wall clock), to align a follower that jumped alone. */
    long frontierWallMs() {
        return frontierWallMs;
    }

    boolean started() {
        return timeline.started();
    }
}
