package io.tern.server.origin.stream;

import io.netty.buffer.ByteBufAllocator;
import io.tern.hls.media.ChunkStore;
import io.tern.hls.media.HeapChunkStore;
import io.tern.hls.packager.LlHlsPackager;
import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.AccessUnit;
import java.lang.management.ManagementFactory;

/** Live heap after a full GC with one packager fed 180 s of the benchmark's bitrate. */
public class HeapCheck {
    public static void main(String[] args) {
        boolean direct = args[0].equals("direct");
        DirectBudget budget = new DirectBudget(192L << 20);
        ChunkStore store = direct ? new DirectChunkStore(budget, ByteBufAllocator.DEFAULT) : new HeapChunkStore();
        long base = live();
        long[] wall = {0};
        LlHlsPackager p = new LlHlsPackager(
                PackagerConfig.defaults("h").withSegmentTargetMs(1000).withPartTargetMs(200),
                StreamLayout.VIDEO_AND_AUDIO, () -> wall[0], store);
        p.onConfig(TestMedia.avc720p(), 0);
        p.onConfig(TestMedia.aac48k(), 0);
        SyntheticStream s = new SyntheticStream();
        s.frameBytes = 10_000; s.keyframeBytes = 40_000; s.audioBytes = 340; // ~2.6 Mbit/s
        for (long ms = 0; ms < 180_000; ms += 100) {
            for (AccessUnit au : s.generate(ms, 100)) {
                long nowNs = au.dts() * 100_000 / 9;
                wall[0] = nowNs / 1_000_000;
                p.onAccessUnit(au, nowNs);
                while (p.pollEvent() != null) {}
            }
        }
        long heap = live() - base;
        System.out.printf("%s store: retained media %.1f MiB, live heap above the start %.1f MiB, direct budget used %.1f MiB%n",
                args[0], p.retainedBytes() / 1048576.0, heap / 1048576.0, budget.usedBytes() / 1048576.0);
        p.close(0);
        System.out.printf("after close: direct budget used %.1f MiB%n", budget.usedBytes() / 1048576.0);
    }

    static long live() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
