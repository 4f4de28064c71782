package io.tern.hls.testing;

import io.tern.media.AccessUnit;
import io.tern.media.MediaTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Generated access units, video and audio interleaved by decode time as an ingest delivers them.
 * Video has an IPBB-like reordering (composition offsets) when {@link #bFrames} is on.
 */
public final class SyntheticStream {
    public double fps = 30;
    public int gopFrames = 30;
    public boolean bFrames = true;
    public int audioRateHz = 48_000;
    public boolean video = true;
    public boolean audio = true;
    /** Round timestamps to whole milliseconds, as RTMP does. */
    public boolean millisecondTimestamps;

    public long videoStartTicks = 0;
    public long audioStartTicks = 0;
    public int keyframeBytes = 6000;
    public int frameBytes = 1500;
    public int audioBytes = 300;

    /** Frames covering {@code durationMs}, from frame index {@code fromMs}. */
    public List<AccessUnit> generate(long fromMs, long durationMs) {
        List<AccessUnit> out = new ArrayList<>();
        if (video) {
            double frameTicks = MediaTime.TICKS_PER_SECOND / fps;
            long first = (long) Math.ceil(fromMs * 90 / frameTicks);
            long last = (long) Math.floor((fromMs + durationMs) * 90 / frameTicks);
            for (long i = first; i < last; i++) {
                long dts = videoStartTicks + Math.round(i * frameTicks);
                boolean key = i % gopFrames == 0;
                long pts = dts;
                if (bFrames) {
                    // decode order I P B B P B B ...: P frames shown two frames later, Bs one earlier
                    long phase = i % gopFrames;
                    long shift = phase == 0 ? 1 : (phase % 3 == 1 ? 3 : 0);
                    pts = dts + Math.round(shift * frameTicks);
                }
                out.add(TestMedia.video(
                        round(dts), Math.max(round(pts), round(dts)), key, key ? keyframeBytes : frameBytes, (int) i));
            }
        }
        if (audio) {
            double frameTicks = 1024.0 * MediaTime.TICKS_PER_SECOND / audioRateHz;
            long first = (long) Math.ceil(fromMs * 90 / frameTicks);
            long last = (long) Math.floor((fromMs + durationMs) * 90 / frameTicks);
            for (long i = first; i < last; i++) {
                long dts = audioStartTicks + (long) Math.floor(i * frameTicks);
                out.add(TestMedia.audio(round(dts), audioBytes, (int) i));
            }
        }
        out.sort(Comparator.comparingLong(AccessUnit::dts));
        return out;
    }

    private long round(long ticks) {
        return millisecondTimestamps ? Math.floorDiv(ticks, 90) * 90 : ticks;
    }
}
