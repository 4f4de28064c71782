package io.tern.hls.mp4;

import io.tern.media.TrackType;

/**
 * Writes one movie fragment: {@code moof} ({@code mfhd}, one {@code traf} with {@code tfhd},
 * {@code tfdt} and {@code trun} per track) followed by its {@code mdat} (ISO 14496-12 §8.8; CMAF
 * chunks, ISO 23000-19 §7.3.2.3). A separate rendition's fragment has one track; a muxed
 * rendition's has video and audio, each track's samples contiguous in the one {@code mdat}.
 *
 * <ul>
 *   <li>{@code tfhd} sets default-base-is-moof, so data offsets count from the fragment's own
 *       first byte and a fragment can be cut out of a file or served alone.
 *   <li>{@code tfdt} (version 1, 64 bits) carries the decode time of the first sample.
 *   <li>{@code trun} carries each sample's duration and size. Video samples also carry their
 *       flags (sync or not, and what they depend on) and composition offsets; audio samples are
 *       all sync samples, declared once by {@code tfhd}'s default sample flags.
 * </ul>
 *
 * <p>The fragment's size is computed from the run first, then the bytes are written into one
 * array of exactly that size: the chunk stored and served to every viewer.
 */
public final class FragmentWriter {
    static final int TFHD_DEFAULT_BASE_IS_MOOF = 0x02_0000;
    static final int TFHD_DEFAULT_SAMPLE_FLAGS = 0x00_0020;
    static final int TRUN_DATA_OFFSET = 0x00_0001;
    static final int TRUN_DURATION = 0x00_0100;
    static final int TRUN_SIZE = 0x00_0200;
    static final int TRUN_FLAGS = 0x00_0400;
    static final int TRUN_COMPOSITION_OFFSET = 0x00_0800;

    private static final int MFHD = 16;
    private static final int TFDT = 20;
    private static final int TRUN_HEADER = 20; // full box + sample_count + data_offset
    private static final long MAX_FRAGMENT_BYTES = Integer.MAX_VALUE - 64;

    private FragmentWriter() {}

    /**
     * Writes {@code run} as one fragment.
     *
     * @param sequenceNumber the {@code mfhd} sequence number, increasing from fragment to fragment
     * @param baseDecodeTime decode time of the first sample, in the track's timescale
     */
    public static byte[] write(int sequenceNumber, Mp4Track track, long baseDecodeTime, SampleRun run) {
        if (run.isEmpty()) {
            throw new IllegalArgumentException("empty fragment");
        }
        return write(sequenceNumber, new Mp4Track[] {track}, new long[] {baseDecodeTime}, new SampleRun[] {run});
    }

    /**
     * Writes the samples of a muxed rendition's interval as one fragment: one {@code traf} per
     * track that has samples (video first), and one {@code mdat} holding the video samples, then
     * the audio samples. At least one run must have samples.
     */
    public static byte[] writeMuxed(
            int sequenceNumber,
            Mp4Track video,
            long videoDecodeTime,
            SampleRun videoRun,
            Mp4Track audio,
            long audioDecodeTime,
            SampleRun audioRun) {
        if (videoRun.isEmpty() && audioRun.isEmpty()) {
            throw new IllegalArgumentException("empty fragment");
        }
        if (videoRun.isEmpty()) {
            return write(
                    sequenceNumber, new Mp4Track[] {audio}, new long[] {audioDecodeTime}, new SampleRun[] {audioRun});
        }
        if (audioRun.isEmpty()) {
            return write(
                    sequenceNumber, new Mp4Track[] {video}, new long[] {videoDecodeTime}, new SampleRun[] {videoRun});
        }
        return write(
                sequenceNumber,
                new Mp4Track[] {video, audio},
                new long[] {videoDecodeTime, audioDecodeTime},
                new SampleRun[] {videoRun, audioRun});
    }

    /** One {@code moof} with a {@code traf} per run, then one {@code mdat} with the runs in order. */
    private static byte[] write(int sequenceNumber, Mp4Track[] tracks, long[] baseDecodeTimes, SampleRun[] runs) {
        int moof = 8 + MFHD;
        long payload = 0;
        for (int t = 0; t < tracks.length; t++) {
            if (baseDecodeTimes[t] < 0) {
                throw new IllegalArgumentException("decode time " + baseDecodeTimes[t]);
            }
            moof += trafSize(tracks[t], runs[t]);
            payload += runs[t].payloadBytes();
        }
        long total = moof + 8L + payload;
        if (total > MAX_FRAGMENT_BYTES) {
            throw new IllegalArgumentException("fragment of " + total + " bytes");
        }
        ByteWriter w = new ByteWriter((int) total);
        w.box(moof, "moof");
        w.fullBox(MFHD, "mfhd", 0, 0).u32(sequenceNumber & 0xFFFF_FFFFL);
        long dataOffset = moof + 8; // the first run starts after mdat's header
        for (int t = 0; t < tracks.length; t++) {
            writeTraf(w, tracks[t], baseDecodeTimes[t], runs[t], (int) dataOffset);
            dataOffset += runs[t].payloadBytes();
        }
        w.box((int) (8 + payload), "mdat");
        for (SampleRun run : runs) {
            for (int i = 0; i < run.count(); i++) {
                w.bytes(run.data(i));
            }
        }
        return w.finish();
    }

    private static int trafSize(Mp4Track track, SampleRun run) {
        boolean video = track.type() == TrackType.VIDEO;
        int tfhd = video ? 16 : 20;
        int entryBytes = video ? 16 : 8;
        return 8 + tfhd + TFDT + TRUN_HEADER + run.count() * entryBytes;
    }

    private static void writeTraf(ByteWriter w, Mp4Track track, long baseDecodeTime, SampleRun run, int dataOffset) {
        boolean video = track.type() == TrackType.VIDEO;
        int n = run.count();
        w.box(trafSize(track, run), "traf");
        if (video) {
            w.fullBox(16, "tfhd", 0, TFHD_DEFAULT_BASE_IS_MOOF).u32(track.trackId());
        } else {
            w.fullBox(20, "tfhd", 0, TFHD_DEFAULT_BASE_IS_MOOF | TFHD_DEFAULT_SAMPLE_FLAGS)
                    .u32(track.trackId())
                    .u32(SampleFlags.SYNC);
        }
        w.fullBox(TFDT, "tfdt", 1, 0).u64(baseDecodeTime);
        int trunFlags = TRUN_DATA_OFFSET | TRUN_DURATION | TRUN_SIZE;
        if (video) {
            trunFlags |= TRUN_FLAGS | TRUN_COMPOSITION_OFFSET;
        }
        w.fullBox(TRUN_HEADER + n * (video ? 16 : 8), "trun", 0, trunFlags)
                .u32(n)
                .u32(dataOffset);
        for (int i = 0; i < n; i++) {
            w.u32(run.duration(i)).u32(run.data(i).length);
            if (video) {
                w.u32(run.flags(i) & 0xFFFF_FFFFL).u32(run.compositionOffset(i));
            }
        }
    }
}
