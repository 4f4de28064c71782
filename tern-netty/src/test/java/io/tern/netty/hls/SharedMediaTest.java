package io.tern.netty.hls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.tern.hls.media.Chunk;
import io.tern.hls.media.MediaObject;
import io.tern.hls.media.Part;
import io.tern.hls.media.Segment;
import io.tern.media.TrackType;
import io.tern.netty.http.SharedBody;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stream's media lives once, off the heap: the packager's chunks are copied once into direct
 * buffers ({@link DirectChunkStore}, within the {@link DirectBudget}), and a part's or segment's
 * shared body ({@link BodyCache}) is a composite of retained views of those chunks, never a copy.
 * The chunks stay alive while any body, holder or response still reads them, and are freed once
 * the last lets go.
 */
class SharedMediaTest {
    private final Random random = new Random(7);
    private final DirectBudget budget = new DirectBudget(1 << 20);
    private final DirectChunkStore store = new DirectChunkStore(budget, ByteBufAllocator.DEFAULT);
    private final List<Part> parts = new ArrayList<>();
    private long nextId;

    private Part part(int... chunkSizes) {
        long id = nextId++;
        Part p = new Part("video-p" + id + ".m4s", TrackType.VIDEO, id);
        for (int size : chunkSizes) {
            byte[] bytes = new byte[size];
            random.nextBytes(bytes);
            p.append(store.keep(bytes), 0, 0, 0, true);
        }
        p.finish(3000);
        parts.add(p);
        return p;
    }

    private static byte[] concat(MediaObject o) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < o.chunkCount(); i++) {
            out.writeBytes(o.chunk(i).toArray());
        }
        return out.toByteArray();
    }

    private static int refCnt(Chunk c) {
        return ((DirectChunkStore.BufChunk) c).refCnt();
    }

    private static List<Chunk> chunks(MediaObject o) {
        List<Chunk> out = new ArrayList<>();
        for (int i = 0; i < o.chunkCount(); i++) {
            out.add(o.chunk(i));
        }
        return out;
    }

    /** The packager's release of every part not yet released by a test. */
    @AfterEach
    void releaseParts() {
        for (Part p : parts) {
            p.release();
        }
    }

    @Test
    void aBodyIsViewsOfTheChunksNotACopyAndASegmentsBodyIsViewsOfItsPartsChunks() {
        Part p1 = part(1000, 2000, 3000);
        Part p2 = part(4000);
        assertThat(budget.usedBytes()).isEqualTo(10_000);
        assertThat(chunks(p1)).allMatch(c -> ((DirectChunkStore.BufChunk) c).direct());
        BodyCache cache = new BodyCache(1 << 20);

        SharedBody body = cache.media(p1);
        assertThat(budget.usedBytes()).as("no new direct memory").isEqualTo(10_000);
        assertThat(chunks(p1)).allMatch(c -> refCnt(c) == 2);
        assertThat(body.content().nioBufferCount())
                .as("one component per chunk")
                .isEqualTo(3);
        assertThat(ByteBufUtil.getBytes(body.content())).isEqualTo(concat(p1));
        assertThat(cache.media(p1)).as("one body for every viewer").isSameAs(body);

        Segment segment = new Segment("video-0.m4s", TrackType.VIDEO, 0, 0, null, 0, false, 0);
        segment.add(p1);
        segment.add(p2);
        segment.finish();
        SharedBody whole = cache.media(segment);
        assertThat(budget.usedBytes()).isEqualTo(10_000);
        assertThat(chunks(p1)).allMatch(c -> refCnt(c) == 3);
        assertThat(refCnt(p2.chunk(0))).isEqualTo(2);
        assertThat(ByteBufUtil.getBytes(whole.content())).isEqualTo(concat(segment));
        assertThat(cache.mediaBytes()).isEqualTo(6000 + 10_000);

        cache.clear();
        assertThat(chunks(segment)).allMatch(c -> refCnt(c) == 1);
    }

    @Test
    void theChunksLiveWhileABodyOrAResponseReadsThemAndAreFreedWithTheLast() {
        Part p = part(5000, 6000);
        byte[] expected = concat(p);
        List<Chunk> kept = chunks(p);
        BodyCache cache = new BodyCache(1 << 20);
        SharedBody body = cache.media(p);
        ByteBuf response = body.retainedContent();

        parts.remove(p);
        p.release(); // the packager forgets the part
        assertThat(budget.usedBytes()).isZero();
        assertThat(kept).allMatch(c -> refCnt(c) == 1);
        assertThat(ByteBufUtil.getBytes(response)).isEqualTo(expected);

        cache.clear(); // the body goes; the response still writes its view
        assertThat(kept).allMatch(c -> refCnt(c) == 1);
        assertThat(ByteBufUtil.getBytes(response)).isEqualTo(expected);
        response.release();
        assertThat(kept).allMatch(c -> refCnt(c) == 0);
    }

    @Test
    void bodiesHandedToOtherThreadsKeepTheirChunksUntilTheLastHolderLetsGo() throws Exception {
        ExecutorService loops = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 200; round++) {
                Part p = part(700, 900, 1100, 1300);
                byte[] expected = concat(p);
                List<Chunk> kept = chunks(p);
                BodyCache cache = new BodyCache(1 << 20);
                SharedBody body = cache.media(p);
                List<Future<byte[]>> served = new ArrayList<>();
                for (int viewer = 0; viewer < 8; viewer++) {
                    body.retain(); // retained before the hand-off, as LiveStream does
                    served.add(loops.submit(() -> {
                        ByteBuf view = body.retainedContent();
                        body.release();
                        try {
                            return ByteBufUtil.getBytes(view);
                        } finally {
                            view.release();
                        }
                    }));
                }
                parts.remove(p);
                p.release(); // meanwhile the packager forgets it and the cache lets go
                cache.clear();
                for (Future<byte[]> f : served) {
                    assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(expected);
                }
                assertThat(kept).allMatch(c -> refCnt(c) == 0);
            }
        } finally {
            loops.shutdownNow();
            assertThat(loops.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void pastTheBudgetChunksStayOnTheHeapAndTheBudgetIsGivenBack() {
        List<Part> kept = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            kept.add(part(100_000));
        }
        assertThat(budget.usedBytes()).isLessThanOrEqualTo(budget.limitBytes());
        assertThat(store.refusedChunks()).isEqualTo(10);
        assertThat(((DirectChunkStore.BufChunk) kept.get(19).chunk(0)).direct()).isFalse();
        BodyCache cache = new BodyCache(4L << 20);
        for (Part p : kept) {
            assertThat(ByteBufUtil.getBytes(cache.media(p).content())).isEqualTo(concat(p));
        }
        cache.clear();
        for (Part p : kept) {
            parts.remove(p);
            p.release();
        }
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void theCapBoundsTheBytesBodiesPinAndAnObjectOverItIsServedAsViewsForOneResponse() {
        BodyCache cache = new BodyCache(5000);
        Part p1 = part(3000);
        Part p2 = part(3000);
        Part big = part(4000, 4000);
        cache.media(p1);
        assertThat(refCnt(p1.chunk(0))).isEqualTo(2);
        cache.media(p2); // p1's body goes to make room
        assertThat(refCnt(p1.chunk(0))).isEqualTo(1);
        assertThat(cache.mediaBytes()).isEqualTo(3000);
        assertThat(cache.media(big)).isNull();
        ByteBuf once = BodyCache.wrap(big);
        assertThat(ByteBufUtil.getBytes(once)).isEqualTo(concat(big));
        assertThat(refCnt(big.chunk(0))).isEqualTo(2);
        once.release();
        assertThat(refCnt(big.chunk(0))).isEqualTo(1);
        cache.clear();
    }

    @Test
    void mediaThePackagerRetiresIsLetGo() {
        BodyCache cache = new BodyCache(1 << 20);
        Part old = part(2000);
        Part current = part(2000);
        cache.media(old);
        cache.media(current);
        cache.retired(old);
        assertThat(cache.mediaBytes()).isEqualTo(2000);
        assertThat(refCnt(old.chunk(0))).isEqualTo(1);
        assertThat(refCnt(current.chunk(0))).isEqualTo(2);
        cache.clear();
    }
}
