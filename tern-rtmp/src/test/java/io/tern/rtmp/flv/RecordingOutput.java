package io.tern.rtmp.flv;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import java.util.ArrayList;
import java.util.List;

/** Keeps what a demuxer reports, in order. */
final class RecordingOutput implements FlvDemuxer.Output {
    final List<Object> all = new ArrayList<>();
    final List<AccessUnit> units = new ArrayList<>();
    final List<CodecConfig> configs = new ArrayList<>();
    final List<String> dropped = new ArrayList<>();
    final List<String> discontinuities = new ArrayList<>();

    @Override
    public void config(CodecConfig config) {
        configs.add(config);
        all.add(config);
    }

    @Override
    public void accessUnit(AccessUnit unit) {
        units.add(unit);
        all.add(unit);
    }

    @Override
    public void discontinuity(TrackType track, long previousDts, long dts, boolean backwards) {
        String d = track + (backwards ? " back " : " jump ") + previousDts + "->" + dts;
        discontinuities.add(d);
        all.add(d);
    }

    @Override
    public void dropped(String reason) {
        dropped.add(reason);
        all.add(reason);
    }
}
