package io.tern.netty.rtmp;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.flv.FlvDemuxer;
import io.tern.rtmp.flv.FlvFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** An FLV file read back into configurations and access units, in file order, as a publisher would send them. */
final class FlvSource {
    final List<Object> items = new ArrayList<>();

    static FlvSource read(Path file) throws IOException, MediaFormatException {
        FlvSource source = new FlvSource();
        FlvDemuxer demuxer = new FlvDemuxer(
                new FlvDemuxer.Output() {
                    @Override
                    public void config(CodecConfig config) {
                        source.items.add(config);
                    }

                    @Override
                    public void accessUnit(AccessUnit unit) {
                        source.items.add(unit);
                    }

                    @Override
                    public void discontinuity(TrackType track, long previousDts, long dts, boolean backwards) {}

                    @Override
                    public void dropped(String reason) {
                        throw new AssertionError("the FLV file has a bad tag: " + reason);
                    }
                },
                10_000);
        FlvFile.readFile(Files.readAllBytes(file), (type, timestamp, buf, offset, length) -> {
            if (type == MessageType.VIDEO) {
                demuxer.video(timestamp, buf, offset, length);
            } else if (type == MessageType.AUDIO) {
                demuxer.audio(timestamp, buf, offset, length);
            }
        });
        return source;
    }

    long videoFrames() {
        return items.stream()
                .filter(i -> i instanceof AccessUnit u && u.track() == TrackType.VIDEO)
                .count();
    }

    /**
     * Sends every item through {@code client} at the pace of its DTS (a live source), so that a
     * player joining meanwhile sees a live stream.
     */
    void pushLive(RtmpPushClient client) throws InterruptedException {
        long startNs = System.nanoTime();
        for (Object item : items) {
            if (item instanceof CodecConfig config) {
                client.sendConfig(config, 0);
            } else {
                AccessUnit unit = (AccessUnit) item;
                long dueNs = startNs + MediaTime.toNanos(unit.dts());
                long waitNs = dueNs - System.nanoTime();
                if (waitNs > 0) {
                    // Pacing a live source at its DTS: the real-time rate is the behaviour, not a wait.
                    Thread.sleep(waitNs / 1_000_000, (int) (waitNs % 1_000_000));
                }
                client.sendAccessUnit(unit);
            }
        }
    }
}
