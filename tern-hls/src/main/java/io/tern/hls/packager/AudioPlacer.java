package io.tern.hls.packager;

import io.tern.hls.media.InitSegment;
import io.tern.hls.mp4.Mp4Track;
import io.tern.hls.mp4.SampleFlags;
import io.tern.media.AccessUnit;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import java.util.ArrayDeque;

/**
 * Places AAC frames: beside video as the follower, alone as the leader.
 *
 * <p>Positions are counted in samples, 1024 a frame, so the audio timeline is exact and never
 * drifts against its timestamps' rounding (RTMP's milliseconds). The count is re-anchored to the
 * timestamps only when they disagree by more than two frames: a gap (lost frames) is written as
 * a gap, and frames that would overlap ones already written are dropped.
 *
 * <p><b>Following video</b>, audio segments start where the video's segments of the same media
 * sequence number start (at the nearest frame boundary), so both renditions have the same
 * segments, discontinuities and program date-times; parts are cut on audio's own frames. A frame
 * is written only once video has decided every cut before it, so audio waits for video (about
 * one video frame); a bounded queue holds it meanwhile. Each frame carries how many timestamp
 * jumps and codec changes audio has seen, which says which epoch it belongs to: an audio jump
 * pairs with the video's next jump (the same ingest clock jumped), a codec change, or a jump
 * video does not make within a second, asks video for a new epoch at its next keyframe.
 *
 * <p><b>Muxed</b> ({@link RenditionMode#MUXED}), audio has no segments or parts of its own: each
 * frame, placed as above, goes into the muxed rendition's part being written, which video cuts.
 * Where audio has got to is the placer's own count, not the rendition's (whose end is video's).
 */
final class AudioPlacer {
    private record Frame(AccessUnit au, InitSegment init, Mp4Track track, long jumps, long configs, long wallMs) {}

    private static final int MAX_QUEUED_FRAMES = 1024;
    private static final long PAIR_WINDOW_TICKS = MediaTime.TICKS_PER_SECOND;
    private static final long FRAME = AacConfig.SAMPLES_PER_FRAME;

    private final Timing timing;
    private final StreamTimeline timeline;
    /** Audio's own rendition, or the muxed one it writes into. */
    private final Rendition audio;

    private final PackagerStats stats;
    private final VideoPlacer video;
    private final long gapTicks;

    private final ArrayDeque<Frame> queue = new ArrayDeque<>();
    private long lastIn = Long.MIN_VALUE;
    private long jumps;
    private long configs;
    /** The epoch frames are being matched to (follower). */
    private Epoch current;
    /** The epoch of the open audio segment. */
    private Epoch written;

    /** Where the next frame goes, in samples at {@link #writtenRate}: the end of the last one written. */
    private long nextPos;

    private int writtenRate;
    private boolean hasWritten;

    private long cursorMsn;

    // Leader only.
    private long offset;
    private boolean betweenEpochs = true;
    private Epoch.Reason nextReason = Epoch.Reason.START;
    private boolean configPending;
    private boolean segmentFull;

    /** @param video the leader, or null when audio leads */
    AudioPlacer(
            PackagerConfig config,
            Timing timing,
            StreamTimeline timeline,
            Rendition audio,
            PackagerStats stats,
            VideoPlacer video) {
        this.timing = timing;
        this.timeline = timeline;
        this.audio = audio;
        this.stats = stats;
        this.video = video;
        this.gapTicks = MediaTime.fromMillis(config.discontinuityGapMs());
    }

    /** A new configuration applies to the frames that follow. */
    void configChanged() {
        configs++;
        if (video == null) {
            configPending = timeline.started() && !betweenEpochs;
        }
    }

    void onFrame(AccessUnit au, long wallMs) {
        long dts = au.dts();
        boolean jump = lastIn != Long.MIN_VALUE && (dts <= lastIn || dts - lastIn > gapTicks);
        lastIn = dts;
        if (jump) {
            jumps++;
            stats.timestampJumps++;
        }
        if (video == null) {
            lead(au, wallMs, jump);
            return;
        }
        queue.addLast(new Frame(au, audio.latestInit(), audio.latestTrack(TrackType.AUDIO), jumps, configs, wallMs));
        if (queue.size() > MAX_QUEUED_FRAMES) {
            queue.removeFirst();
            stats.droppedAudioQueueFull++;
        }
        drain();
    }

    /** Writes every queued frame that video's decisions allow; call after each video frame. */
    void drain() {
        while (!queue.isEmpty()) {
            Frame f = queue.peekFirst();
            Epoch e = resolve(f);
            if (e == null) {
                askForEpoch(f);
                return;
            }
            if (e == STALE) {
                dropFirst();
                continue;
            }
            long half = halfFrameTicks(f);
            long a90 = f.au().dts() + e.followerOffset;
            if (a90 < e.startTicks - half) {
                dropFirst();
                continue;
            }
            if (e.ended() && a90 >= e.endTicks - half) {
                Epoch next = firstUnassignedAfter(e);
                if (next != null && a90 - e.endTicks > PAIR_WINDOW_TICKS) {
                    // Video jumped and audio did not: audio joins the new epoch as it is.
                    next.assignFollower(f.jumps(), f.configs(), realign(f, next));
                    current = next;
                    continue;
                }
                dropFirst();
                continue;
            }
            if (!e.ended() && a90 + half >= video.frontier()) {
                return; // video has not decided the cuts up to here yet
            }
            queue.removeFirst();
            follow(f, a90, e);
        }
    }

    private void dropFirst() {
        queue.removeFirst();
        stats.droppedAudioOutsideEpoch++;
    }

    /** Marks frames that belong to an epoch already over. */
    private static final Epoch STALE = new Epoch(-1, Epoch.Reason.START, 0, 0, 0, 0);

    /** The epoch {@code f} belongs to, {@link #STALE}, or null while that epoch does not exist yet. */
    private Epoch resolve(Frame f) {
        if (current == null) {
            if (!timeline.started()) {
                return null;
            }
            current = timeline.currentEpoch();
            if (!current.followerAssigned()) {
                current.assignFollower(f.jumps(), f.configs(), current.leaderOffset);
            }
        }
        if (current.matchesFollower(f.jumps(), f.configs())) {
            // Epochs the leader opened for its own codec change keep audio's generations: audio
            // moves on to them by time.
            Epoch next = after(current);
            while (next != null
                    && next.matchesFollower(f.jumps(), f.configs())
                    && f.au().dts() + next.followerOffset >= next.startTicks - halfFrameTicks(f)) {
                current = next;
                next = after(current);
            }
            return current;
        }
        if (f.jumps() < current.followerJumps
                || (f.jumps() == current.followerJumps && f.configs() < current.followerConfigs)) {
            return STALE;
        }
        Epoch next = firstUnassignedAfter(current);
        if (next == null) {
            return null;
        }
        long followerOffset;
        if (f.jumps() == current.followerJumps) {
            followerOffset = current.followerOffset; // a codec change only
        } else if (next.reason == Epoch.Reason.TIMESTAMP_JUMP) {
            followerOffset = next.leaderOffset; // both jumped: the same clock, the same shift
        } else {
            followerOffset = realign(f, next); // audio jumped alone
        }
        next.assignFollower(f.jumps(), f.configs(), followerOffset);
        current = next;
        return current;
    }

    /** While waiting for an epoch: ask video for one if it will not come by itself. */
    private void askForEpoch(Frame f) {
        if (current == null) {
            return;
        }
        boolean configChange = f.configs() > current.followerConfigs;
        boolean lonelyJump = queue.peekLast().au().dts() - f.au().dts() > PAIR_WINDOW_TICKS;
        if (configChange || lonelyJump) {
            video.requestEpoch();
        }
    }

    /** An offset placing {@code f} beside the video that arrived when it did (by wall clock). */
    private long realign(Frame f, Epoch next) {
        long frontier = video.frontier();
        if (frontier == Long.MIN_VALUE || frontier == Long.MAX_VALUE) {
            return next.startTicks - f.au().dts();
        }
        long lagTicks = MediaTime.fromMillis(Math.max(0, video.frontierWallMs() - f.wallMs()));
        return frontier - lagTicks - f.au().dts();
    }

    private Epoch after(Epoch e) {
        for (int i = timeline.epochCount() - 1; i > 0; i--) {
            if (timeline.epoch(i - 1) == e) {
                return timeline.epoch(i);
            }
        }
        return null;
    }

    private Epoch firstUnassignedAfter(Epoch e) {
        for (Epoch n = after(e); n != null; n = after(n)) {
            if (!n.followerAssigned()) {
                return n;
            }
        }
        return null;
    }

    private void follow(Frame f, long a90, Epoch e) {
        boolean newEpoch = e != written;
        int rate = f.track().timescale();
        long pos = position(a90, rate, newEpoch);
        if (pos < 0) {
            return;
        }
        if (audio.muxed) {
            if (!audio.hasOpenSegment() || audio.openSegment().discontinuitySequence() != e.discontinuitySequence) {
                // Video has closed this epoch's last segment (a jump, a codec change): the frame
                // came too late for it, and belongs to no later one.
                stats.droppedAudioOutsideEpoch++;
                return;
            }
            written = e;
            audio.addAudio(f.au().data(), pos, (int) FRAME);
            wrote(pos, rate);
            return;
        }
        long half = halfFrameTicks(f);
        long pos90 = Rendition.ticks(pos, rate);
        if (newEpoch) {
            cursorMsn = e.firstMsn;
        }
        SegmentSlot next;
        while ((next = timeline.slot(cursorMsn + 1)) != null
                && next.epoch() == e
                && pos90 >= next.startTicks() - half) {
            cursorMsn++;
        }
        long limit = timing.audioPartLimitSamples(rate);
        if (!audio.hasOpenSegment() || audio.openSegment().msn() != cursorMsn) {
            SegmentSlot slot = timeline.slot(cursorMsn);
            audio.startSegment(slot, pos, e.programDateTimeMs(pos90), f.init());
            written = e;
        } else {
            long partStart = audio.partStart();
            if (partStart >= 0 && pos + FRAME - partStart > limit) {
                audio.cutPart();
            }
        }
        audio.add(f.au().data(), pos, (int) FRAME, SampleFlags.SYNC, 0);
        wrote(pos, rate);
        long partStart = audio.partStart();
        if (partStart >= 0 && nextPos + FRAME - partStart > limit) {
            audio.cutPart(); // the next frame cannot fit: list the part now
        }
        SegmentSlot after = timeline.slot(cursorMsn + 1);
        if (after != null && after.epoch() == e && Rendition.ticks(nextPos, rate) >= after.startTicks() - half) {
            audio.closeSegment();
        }
    }

    /**
     * The sample position of a frame at output time {@code a90}: the running count, unless the
     * timestamps disagree by more than two frames. -1 drops the frame.
     */
    private long position(long a90, int rate, boolean fresh) {
        long actual = MediaTime.rescale(a90, rate);
        if (fresh || !hasWritten) {
            long end = !hasWritten
                    ? 0
                    : writtenRate == rate ? nextPos : Math.ceilDiv(edgeTicks() * rate, MediaTime.TICKS_PER_SECOND);
            return Math.max(actual, end);
        }
        long diff = actual - nextPos;
        if (diff > 2 * FRAME) {
            stats.audioGaps++;
            return actual;
        }
        if (diff < -2 * FRAME) {
            stats.droppedAudioOverlap++;
            return -1;
        }
        return nextPos;
    }

    /** Notes a frame written at {@code pos} (samples at {@code rate}). */
    private void wrote(long pos, int rate) {
        nextPos = pos + FRAME;
        writtenRate = rate;
        hasWritten = true;
    }

    /** The output time (90 kHz) audio has reached. */
    private long edgeTicks() {
        return hasWritten ? Rendition.ticks(nextPos, writtenRate) : 0;
    }

    private static long halfFrameTicks(Frame f) {
        return FRAME * MediaTime.TICKS_PER_SECOND / f.track().timescale() / 2;
    }

    // ---- audio alone: the leader

    private void lead(AccessUnit au, long wallMs, boolean jump) {
        if (jump) {
            breakEpoch(Epoch.Reason.TIMESTAMP_JUMP);
        } else if (configPending) {
            breakEpoch(Epoch.Reason.LEADER_CODEC_CHANGE);
        }
        InitSegment init = audio.latestInit();
        int rate = init.track().timescale();
        if (!timing.partTargetFixed()) {
            timing.fixFromAudio((AacConfig) init.track().config());
        }
        long limit = timing.audioPartLimitSamples(rate);
        long pos;
        if (betweenEpochs) {
            Epoch.Reason reason = timeline.started() ? nextReason : Epoch.Reason.START;
            long start;
            if (reason == Epoch.Reason.START) {
                start = 0;
            } else if (reason == Epoch.Reason.TIMESTAMP_JUMP) {
                start = edgeTicks();
            } else {
                start = Math.max(au.dts() + offset, edgeTicks());
            }
            offset = start - au.dts();
            Epoch e = timeline.openEpoch(reason, start, wallMs, offset);
            if (reason != Epoch.Reason.START) {
                stats.discontinuities++;
            }
            betweenEpochs = false;
            nextReason = Epoch.Reason.START;
            segmentFull = false;
            pos = position(start, rate, true);
            audio.startSegment(timeline.lastSlot(), pos, e.programDateTimeMs(Rendition.ticks(pos, rate)), init);
        } else {
            pos = position(au.dts() + offset, rate, false);
            if (pos < 0) {
                return;
            }
            long pos90 = Rendition.ticks(pos, rate);
            if (segmentFull
                    || pos90
                                    + Rendition.ticks(FRAME, rate)
                                    - Rendition.ticks(audio.openSegment().startTime(), rate)
                            > timing.maxSegmentTicks) {
                SegmentSlot slot = timeline.cut(pos90);
                audio.startSegment(slot, pos, timeline.currentEpoch().programDateTimeMs(pos90), init);
                segmentFull = false;
            } else {
                long partStart = audio.partStart();
                if (partStart >= 0 && pos + FRAME - partStart > limit) {
                    audio.cutPart();
                }
            }
        }
        audio.add(au.data(), pos, (int) FRAME, SampleFlags.SYNC, 0);
        wrote(pos, rate);
        long partStart = audio.partStart();
        if (partStart >= 0 && nextPos + FRAME - partStart > limit) {
            audio.cutPart();
            long elapsed = nextPos - audio.openSegment().startTime();
            long segmentTarget = MediaTime.rescale(timing.segmentTargetTicks, rate);
            long maxSegment = MediaTime.rescale(timing.maxSegmentTicks, rate);
            if (elapsed + limit > segmentTarget || elapsed + limit > maxSegment) {
                audio.closeSegment();
                segmentFull = true;
            }
        }
    }

    private void breakEpoch(Epoch.Reason reason) {
        configPending = false;
        if (betweenEpochs) {
            return;
        }
        audio.closeSegment();
        timeline.endEpoch(edgeTicks());
        betweenEpochs = true;
        nextReason = reason;
    }

    /**
     * The publisher is gone: write what video now allows, then close audio's rendition (a muxed
     * one is the video's to close).
     */
    void end() {
        if (video != null) {
            drain();
        }
        if (!audio.muxed) {
            audio.finish();
        }
    }

    /** How far audio has been written, output 90 kHz ticks, or -1 before the first frame. */
    long endTicks() {
        return hasWritten ? edgeTicks() : -1;
    }
}
