package io.tern.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.tern.bench.client.ChannelData;
import java.util.List;

/** Splits a TURN-over-TCP/TLS byte stream into STUN messages and (padded) ChannelData frames, RFC 8656 §12.5. */
final class StreamFramer extends ByteToMessageDecoder {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= 4) {
            int r = in.readerIndex();
            int frameBytes = ChannelData.streamFrameBytes(
                    in.getByte(r), in.getByte(r + 1), in.getByte(r + 2), in.getByte(r + 3));
            if (frameBytes < 0) {
                throw new CorruptedFrameException("neither STUN nor ChannelData on the stream");
            }
            if (in.readableBytes() < frameBytes) {
                return;
            }
            out.add(in.readRetainedSlice(frameBytes));
        }
    }
}
