package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.media.Chunk;
import io.tern.hls.media.HeapChunkStore;
import io.tern.hls.media.MediaObject;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.ObjectAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The packager keeps its media in the injected {@link io.tern.hls.media.ChunkStore}: every chunk
 * it makes goes there once, and it releases each chunk exactly once, when the segment holding it
 * is forgotten (its window passed, or memory), and everything when it is closed. The store then
 * holds the windows' media, not the stream's.
 */
class ChunkStoreTest {
    private final SyntheticStream stream = new SyntheticStream();

    private static List<Chunk> chunks(MediaObject o) {
        List<Chunk> out = new ArrayList<>();
        for (int i = 0; i < o.chunkCount(); i++) {
            out.add(o.chunk(i));
        }
        return out;
    }

    private static boolean released(Chunk c) {
        return ((HeapChunkStore.HeapChunk) c).released();
    }

    @Test
    void everyChunkMadeIsKeptInTheStoreAndEventsCarryTheSameHandles() {
        Harness h = Harness.av();
        h.feed(stream.generate(0, 5_000));
        long written = h.events(HlsEvent.ChunkWritten.class).stream()
                .mapToLong(c -> c.chunk().length())
                .sum();
        assertThat(written).isEqualTo(h.packager.stats().chunkBytes());
        // Nothing has left the windows yet: the store holds every chunk and the two init segments.
        long inits = h.bytes("video-init-0.mp4").length + h.bytes("audio-init-0.mp4").length;
        assertThat(h.store.heldBytes()).isEqualTo(written + inits);
        assertThat(h.store.heldBytes()).isEqualTo(h.packager.retainedBytes() + inits);

        HlsEvent.ChunkWritten first = h.events(HlsEvent.ChunkWritten.class).get(0);
        MediaObject segment = ((ObjectAnswer.Found) h.packager.object("video-0.m4s", h.nowNs)).object();
        List<Chunk> inSegment = chunks(segment);
        if (first.track() == TrackType.VIDEO) {
            assertThat(inSegment.get(0)).isSameAs(first.chunk());
        }
    }

    @Test
    void aSegmentsChunksAreReleasedOnceWhenItLeavesItsWindowAndNotBefore() {
        Harness h = Harness.av();
        h.feed(stream.generate(0, 30_000));
        MediaObject oldest = ((ObjectAnswer.Found) h.packager.object("video-0.m4s", h.nowNs)).object();
        List<Chunk> kept = chunks(oldest);
        assertThat(kept).isNotEmpty().noneMatch(ChunkStoreTest::released);

        long fedMs = 30_000;
        while (h.packager.object("video-0.m4s", h.nowNs) instanceof ObjectAnswer.Found && fedMs < 120_000) {
            // Until it is forgotten, its chunks stay kept, even after its parts stopped being listed.
            assertThat(kept).noneMatch(ChunkStoreTest::released);
            h.feed(stream.generate(fedMs, 500));
            fedMs += 500;
        }
        assertThat(h.packager.object("video-0.m4s", h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        // A second release would have thrown (HeapChunkStore).
        assertThat(kept).allMatch(ChunkStoreTest::released);
    }

    @Test
    void theStoreHoldsTheWindowsNotTheStreamOverALongStream() {
        Harness h = Harness.av();
        long maxHeld = 0;
        long heldAt5Min = 0;
        for (long ms = 0; ms < 20 * 60_000; ms += 10_000) {
            h.feed(stream.generate(ms, 10_000));
            maxHeld = Math.max(maxHeld, h.store.heldBytes());
            if (ms == 5 * 60_000) {
                heldAt5Min = h.store.heldBytes();
            }
        }
        long perSecond = h.packager.stats().chunkBytes() / (20 * 60);
        // About two playlists (24 s each) plus parts: well under 60 s of media, and flat after the
        // windows filled (5 min in), over 20 minutes of stream.
        assertThat(maxHeld).isLessThan(perSecond * 60);
        assertThat(h.store.heldBytes()).isBetween(heldAt5Min * 9 / 10, heldAt5Min * 11 / 10);
        assertThat(h.store.heldChunks()).isLessThan(60L * (30 + 16));
    }

    @Test
    void memoryDropsReleaseTheDroppedSegmentsChunks() {
        PackagerConfig config = PackagerConfig.defaults("m").withMaxRetainedBytes(2L << 20);
        Harness h = new Harness(config, StreamLayout.VIDEO_AND_AUDIO);
        h.configure(TestMedia.avc720p(), TestMedia.aac48k());
        SyntheticStream big = new SyntheticStream();
        big.frameBytes = 20_000;
        big.keyframeBytes = 60_000;
        long maxHeld = 0;
        for (int ms = 0; ms < 60_000; ms += 1000) {
            h.feed(big.generate(ms, 1000));
            maxHeld = Math.max(maxHeld, h.store.heldBytes());
        }
        assertThat(h.packager.stats().memoryDrops()).isPositive();
        assertThat(maxHeld).isLessThan(8L << 20);
        assertThat(h.store.heldBytes() - h.packager.retainedBytes()).isLessThan(4096); // the init segments
    }

    @Test
    void closeReleasesEverythingOnceAndServesNothingAfter() {
        Harness h = Harness.av();
        h.feed(stream.generate(0, 10_300)); // mid-part: the open segment and hinted part hold chunks
        assertThat(h.store.heldChunks()).isPositive();
        h.packager.onEndOfStream(h.nowNs);
        h.packager.close(h.nowNs);
        assertThat(h.store.heldChunks()).isZero();
        assertThat(h.store.heldBytes()).isZero();
        assertThat(h.packager.retainedBytes()).isZero();
        assertThat(h.packager.object("video-2.m4s", h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        assertThat(h.packager.object("video-init-0.mp4", h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        h.packager.close(h.nowNs); // idempotent: no second release
        assertThat(h.store.heldChunks()).isZero();
    }

    @Test
    void closeWithoutAnEndReleasesTheOpenPartToo() {
        Harness h = Harness.av();
        h.feed(stream.generate(0, 2_100));
        h.packager.close(h.nowNs);
        assertThat(h.store.heldChunks()).isZero();
    }
}
