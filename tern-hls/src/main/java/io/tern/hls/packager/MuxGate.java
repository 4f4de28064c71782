package io.tern.hls.packager;

import io.tern.media.AccessUnit;
import io.tern.media.MediaTime;
import io.tern.media.codec.AacConfig;
import java.util.ArrayDeque;

/**
 * Holds a muxed stream's video frames until the audio beside them has arrived, so that where an
 * audio frame lands does not depend on how the publisher interleaved the two.
 *
 * <p>A video frame is placed, and the part before it perhaps cut, when the next one arrives; the
 * audio placer writes a frame once video's frontier is past its middle. So before the video frame
 * after {@code v} goes in, every audio frame whose middle is before {@code v} must be in: the gate
 * lets a video frame through once an audio frame has arrived whose middle is at or past the
 * previous video frame's decode time. Then each audio frame lands in the part holding its middle,
 * whatever the order of arrival.
 *
 * <p>Bounded: it holds at most {@link #MAX_HELD_TICKS} of video ({@link #MAX_HELD_FRAMES} frames);
 * past that, or when video's timestamps go back, video goes on without waiting (audio that then
 * arrives late lands in a later part, still at its own decode time). Input timestamps (90 kHz, the
 * ingest's clock) are compared as they come, before either placer shifts them.
 */
final class MuxGate {
    /** A held video frame and when it arrived (for EXT-X-PROGRAM-DATE-TIME). */
    record Held(AccessUnit au, long wallMs) {}

    static final long MAX_HELD_TICKS = MediaTime.TICKS_PER_SECOND;
    static final int MAX_HELD_FRAMES = 256;

    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long lastAudioDts = Long.MIN_VALUE;
    private long halfAudioFrameTicks;
    /** The decode time of the last video frame let through, or MIN_VALUE before the first. */
    private long lastReleasedDts = Long.MIN_VALUE;

    /** The audio configuration, for the length of a frame. */
    void audioConfig(AacConfig aac) {
        halfAudioFrameTicks = (long) AacConfig.SAMPLES_PER_FRAME * MediaTime.TICKS_PER_SECOND / aac.sampleRateHz() / 2;
    }

    void onAudio(AccessUnit au) {
        lastAudioDts = au.dts();
    }

    void holdVideo(AccessUnit au, long wallMs) {
        held.addLast(new Held(au, wallMs));
    }

    /** The next video frame that may go on, or null while it waits for audio. */
    Held poll() {
        Held head = held.peekFirst();
        if (head == null) {
            return null;
        }
        long heldTicks = held.peekLast().au().dts() - head.au().dts();
        boolean audioCaughtUp = lastReleasedDts == Long.MIN_VALUE
                || (lastAudioDts != Long.MIN_VALUE && lastAudioDts + halfAudioFrameTicks >= lastReleasedDts);
        boolean wentBack = lastReleasedDts != Long.MIN_VALUE && head.au().dts() <= lastReleasedDts;
        if (audioCaughtUp || wentBack || heldTicks > MAX_HELD_TICKS || held.size() > MAX_HELD_FRAMES) {
            held.removeFirst();
            lastReleasedDts = head.au().dts();
            return head;
        }
        return null;
    }

    /** Lets the next held frame through whatever audio has done (a configuration change, the end), or null. */
    Held pollNow() {
        Held head = held.pollFirst();
        if (head != null) {
            lastReleasedDts = head.au().dts();
        }
        return head;
    }

    int heldFrames() {
        return held.size();
    }
}
