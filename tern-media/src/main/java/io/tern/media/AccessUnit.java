package io.tern.media;

import java.util.Objects;

/**
 * One compressed frame of one track, as every ingest (RTMP, SRT/MPEG-TS) hands it to the packager.
 *
 * <ul>
 *   <li>Video (H.264): the frame's NAL units, each prefixed by its length as a 4-byte big-endian
 *       integer (ISO 14496-15 with lengthSizeMinusOne = 3), without access unit delimiters.
 *       Ingests normalise other length sizes and Annex B start codes to this form.
 *   <li>Audio (AAC): one raw frame, without an ADTS header.
 * </ul>
 *
 * <p>{@code dts} and {@code pts} are 90 kHz ticks ({@link MediaTime}) on the ingest's own
 * timeline; {@code pts >= dts}. {@code data} is owned by the access unit once constructed and
 * must not be changed afterwards, so it can be shared without copies.
 */
public final class AccessUnit {
    private final TrackType track;
    private final long dts;
    private final long pts;
    private final boolean keyframe;
    private final byte[] data;

    public AccessUnit(TrackType track, long dts, long pts, boolean keyframe, byte[] data) {
        this.track = Objects.requireNonNull(track, "track");
        this.data = Objects.requireNonNull(data, "data");
        if (pts < dts) {
            throw new IllegalArgumentException("pts " + pts + " before dts " + dts);
        }
        this.dts = dts;
        this.pts = pts;
        this.keyframe = keyframe;
    }

    public TrackType track() {
        return track;
    }

    /** Decode time, 90 kHz ticks. */
    public long dts() {
        return dts;
    }

    /** Presentation time, 90 kHz ticks. */
    public long pts() {
        return pts;
    }

    /** {@code pts - dts}, the composition offset. */
    public long compositionOffset() {
        return pts - dts;
    }

    /** A video frame that starts a new group of pictures (IDR); every audio frame is one. */
    public boolean keyframe() {
        return keyframe;
    }

    /** The payload; do not modify. */
    public byte[] data() {
        return data;
    }

    public int sizeBytes() {
        return data.length;
    }

    @Override
    public String toString() {
        return track + " dts=" + dts + " pts=" + pts + (keyframe ? " key" : "") + " " + data.length + " B";
    }
}
