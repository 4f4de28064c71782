package io.tern.hls.mp4;

import java.util.Arrays;

/**
 * The samples of one fragment being assembled: parallel primitive arrays, reused from fragment to
 * fragment so that collecting samples allocates nothing once the arrays have grown to the
 * largest fragment.
 */
public final class SampleRun {
    private byte[][] data = new byte[8][];
    private int[] durations = new int[8];
    private int[] flags = new int[8];
    private int[] compositionOffsets = new int[8];
    private int count;
    private long payloadBytes;
    private long durationTotal;

    /**
     * Adds a sample. {@code payload} is referenced, not copied, until the fragment is written.
     *
     * @param duration in the track's timescale, {@code >= 0}
     * @param compositionOffset {@code pts - dts} in the track's timescale, {@code >= 0}
     */
    public void add(byte[] payload, int duration, int sampleFlags, int compositionOffset) {
        if (duration < 0 || compositionOffset < 0) {
            throw new IllegalArgumentException("duration " + duration + " offset " + compositionOffset);
        }
        if (count == data.length) {
            int n = count * 2;
            data = Arrays.copyOf(data, n);
            durations = Arrays.copyOf(durations, n);
            flags = Arrays.copyOf(flags, n);
            compositionOffsets = Arrays.copyOf(compositionOffsets, n);
        }
        data[count] = payload;
        durations[count] = duration;
        flags[count] = sampleFlags;
        compositionOffsets[count] = compositionOffset;
        count++;
        payloadBytes += payload.length;
        durationTotal += duration;
    }

    public int count() {
        return count;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    public long payloadBytes() {
        return payloadBytes;
    }

    /** Sum of the durations, in the track's timescale. */
    public long duration() {
        return durationTotal;
    }

    /** Whether the first sample is a sync sample. */
    public boolean startsWithSync() {
        return count > 0 && SampleFlags.isSync(flags[0]);
    }

    byte[] data(int i) {
        return data[i];
    }

    int duration(int i) {
        return durations[i];
    }

    int flags(int i) {
        return flags[i];
    }

    int compositionOffset(int i) {
        return compositionOffsets[i];
    }

    /** Empties the run, dropping the payload references. */
    public void clear() {
        Arrays.fill(data, 0, count, null);
        count = 0;
        payloadBytes = 0;
        durationTotal = 0;
    }
}
