package io.tern.netty.hls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.internal.OutOfDirectMemoryError;
import io.tern.hls.media.Chunk;
import io.tern.hls.media.ChunkStore;

/**
 * The origin's {@link ChunkStore}: each chunk the packager makes is copied once into a pooled
 * direct buffer and the packager's array dies young, so a stream's media lives off the heap and
 * every viewer is served views of that one buffer ({@link BodyCache}, the growing part). Within
 * the server's {@link DirectBudget}: a chunk that does not fit is kept on the heap instead
 * (wrapped, not copied), so the stream goes on rather than fail. Used on the stream's loop; the
 * views it hands out may be released on any loop.
 */
public final class DirectChunkStore implements ChunkStore {
    private final DirectBudget budget;
    private final ByteBufAllocator allocator;
    private long refusedChunks;

    /** A store taking its buffers from Netty's default (pooled) allocator. */
    public DirectChunkStore(DirectBudget budget) {
        this(budget, ByteBufAllocator.DEFAULT);
    }

    public DirectChunkStore(DirectBudget budget, ByteBufAllocator allocator) {
        this.budget = budget;
        this.allocator = allocator;
    }

    /** A chunk in a buffer: the packager's reference, and views for bodies and responses. */
    static final class BufChunk implements Chunk {
        private final ByteBuf buf;
        private final DirectBudget budget;
        private final int budgetedBytes;
        private boolean released;

        private BufChunk(ByteBuf buf, DirectBudget budget, int budgetedBytes) {
            this.buf = buf;
            this.budget = budget;
            this.budgetedBytes = budgetedBytes;
        }

        /** A view of the bytes that keeps them alive until it is released (not a copy). */
        ByteBuf retainedView() {
            return buf.retainedDuplicate();
        }

        /** References to the bytes: the packager's until it releases the chunk, and one per view. */
        int refCnt() {
            return buf.refCnt();
        }

        /** Whether the bytes are off the heap (false once the budget refused them). */
        boolean direct() {
            return buf.isDirect();
        }

        @Override
        public int length() {
            return buf.readableBytes();
        }

        @Override
        public void copyTo(byte[] dst, int offset) {
            buf.getBytes(buf.readerIndex(), dst, offset, buf.readableBytes());
        }

        @Override
        public void release() {
            if (released) {
                throw new IllegalStateException("chunk of " + buf.readableBytes() + " bytes released twice");
            }
            released = true;
            budget.give(budgetedBytes);
            buf.release();
        }
    }

    @Override
    public Chunk keep(byte[] bytes) {
        int length = bytes.length;
        if (!budget.tryTake(length)) {
            refusedChunks++;
            return new BufChunk(Unpooled.wrappedBuffer(bytes), budget, 0);
        }
        ByteBuf direct;
        try {
            direct = allocator.directBuffer(length, length);
        } catch (OutOfDirectMemoryError e) { // the sockets took the rest of the JVM's direct memory
            budget.give(length);
            refusedChunks++;
            return new BufChunk(Unpooled.wrappedBuffer(bytes), budget, 0);
        }
        return new BufChunk(direct.writeBytes(bytes), budget, length);
    }

    /** Chunks the budget refused, kept on the heap. */
    long refusedChunks() {
        return refusedChunks;
    }

    /** A view of {@code chunk} for a body or a response; a chunk of another store is copied. */
    static ByteBuf view(Chunk chunk) {
        if (chunk instanceof BufChunk b) {
            return b.retainedView();
        }
        return Unpooled.wrappedBuffer(chunk.toArray());
    }
}
