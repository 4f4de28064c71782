package io.tern.server.origin.stream;

import io.tern.hls.packager.StreamLayout;
import io.tern.media.AccessUnit;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides which tracks a stream has when its publisher does not say (no {@code onMetaData}): the
 * packager needs the layout before its first frame, so the first configurations and frames wait
 * here until both tracks have a configuration, or one track has a second of frames without the
 * other, or the buffer is full. Pure and bounded.
 */
final class LayoutProbe {
    /** Media of one track, without the other's configuration, after which the stream is that track alone. */
    static final long ALONE_AFTER_TICKS = MediaTime.TICKS_PER_SECOND;

    static final int MAX_UNITS = 600;
    static final long MAX_BYTES = 16L << 20;

    private final List<Object> buffered = new ArrayList<>();
    private CodecConfig video;
    private CodecConfig audio;
    private long firstDts = Long.MIN_VALUE;
    private long bytes;

    /** Takes a configuration; returns the layout once it is decided, else null. */
    StreamLayout onConfig(CodecConfig config) {
        buffered.add(config);
        if (config.track() == TrackType.VIDEO) {
            video = config;
        } else {
            audio = config;
        }
        return video != null && audio != null ? StreamLayout.VIDEO_AND_AUDIO : null;
    }

    /** Takes a frame; returns the layout once it is decided, else null. */
    StreamLayout onAccessUnit(AccessUnit unit) {
        buffered.add(unit);
        bytes += unit.sizeBytes();
        if (firstDts == Long.MIN_VALUE) {
            firstDts = unit.dts();
        }
        boolean waitedLongEnough = unit.dts() - firstDts >= ALONE_AFTER_TICKS;
        if (waitedLongEnough || buffered.size() >= MAX_UNITS || bytes >= MAX_BYTES) {
            return decideNow();
        }
        return null;
    }

    /** The layout from what was seen so far; null when no configuration came at all. */
    StreamLayout decideNow() {
        if (video != null && audio != null) {
            return StreamLayout.VIDEO_AND_AUDIO;
        }
        if (video != null) {
            return StreamLayout.VIDEO_ONLY;
        }
        return audio != null ? StreamLayout.AUDIO_ONLY : null;
    }

    /** What arrived before the decision, in order: {@link CodecConfig}s and {@link AccessUnit}s. */
    List<Object> drain() {
        List<Object> out = List.copyOf(buffered);
        buffered.clear();
        bytes = 0;
        return out;
    }
}
