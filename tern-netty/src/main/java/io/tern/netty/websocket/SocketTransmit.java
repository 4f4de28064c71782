package io.tern.netty.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.tern.netty.EventLoopFlush;
import io.tern.websocket.engine.TransmitBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A connection's {@link TransmitBuffer}: the engine claims its frames in a pooled socket buffer,
 * which goes to the channel (through the per-turn flush) when an input ends or when the next frame
 * does not fit. A full buffer is never grown, since growing copies.
 */
final class SocketTransmit implements TransmitBuffer {
    /** A batch buffer starts at this size; a frame that does not fit starts a new one. */
    private static final int MIN_BATCH_BYTES = 4096;

    private final UnsafeBuffer claimed = new UnsafeBuffer(0, 0);
    private Channel channel;
    private EventLoopFlush flush;
    private EventLoopFlush.Slot flushSlot;
    private ByteBuf batch;

    void attach(Channel channel, EventLoopFlush flush, EventLoopFlush.Slot flushSlot) {
        this.channel = channel;
        this.flush = flush;
        this.flushSlot = flushSlot;
    }

    @Override
    public MutableDirectBuffer claim(int bytes) {
        if (batch != null && batch.maxFastWritableBytes() < bytes) {
            writeBatch(false);
        }
        if (batch == null) {
            batch = channel.alloc().ioBuffer(Math.max(bytes, MIN_BATCH_BYTES));
        }
        batch.ensureWritable(bytes);
        int index = batch.writerIndex();
        batch.writerIndex(index + bytes);
        if (batch.hasMemoryAddress()) {
            claimed.wrap(batch.memoryAddress() + index, bytes);
        } else {
            claimed.wrap(batch.array(), batch.arrayOffset() + index, bytes);
        }
        return claimed;
    }

    /** Appends bytes to the batch (a copy, as a frame written by the engine is). */
    void put(byte[] bytes) {
        if (bytes.length > 0) {
            claim(bytes.length).putBytes(0, bytes);
        }
    }

    /**
     * Appends the readable bytes of {@code body}, which stays the caller's. Direct memory goes to
     * the channel as a retained slice, never copied (the batch so far goes first, to keep the
     * order); heap bytes are copied into the batch, since the socket would copy them anyway.
     */
    void put(ByteBuf body) {
        int length = body.readableBytes();
        if (length == 0) {
            return;
        }
        if (!body.isDirect()) {
            MutableDirectBuffer target = claim(length);
            if (body.hasArray()) {
                target.putBytes(0, body.array(), body.arrayOffset() + body.readerIndex(), length);
            } else {
                target.putBytes(0, ByteBufUtil.getBytes(body));
            }
            return;
        }
        writeBatch(false);
        flush.write(flushSlot, body.retainedSlice());
    }

    /** Bytes claimed and not yet handed to the channel. */
    int batchBytes() {
        return batch == null ? 0 : batch.readableBytes();
    }

    /** Hands the batch to the channel, or drops it when the connection is closing. */
    void writeBatch(boolean discard) {
        if (batch == null) {
            return;
        }
        ByteBuf written = batch;
        batch = null;
        claimed.wrap(0, 0);
        if (discard || !written.isReadable()) {
            written.release();
        } else {
            flush.write(flushSlot, written);
        }
    }

    void release() {
        writeBatch(true);
    }
}
