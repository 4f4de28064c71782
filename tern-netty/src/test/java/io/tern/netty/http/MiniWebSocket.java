package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The smallest RFC 6455 server that proves the upgrade seam with a real client: the handshake,
 * then unfragmented frames echoed back unmasked, and the close echoed. Test-only; the real
 * adapter is the WebSocket engine's.
 */
final class MiniWebSocket implements UpgradeHandler {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    @Override
    public HttpResponseStatus check(HttpRequest request) {
        String key = request.headers().get("Sec-WebSocket-Key");
        return key == null || !"13".equals(request.headers().get("Sec-WebSocket-Version"))
                ? HttpResponseStatus.BAD_REQUEST
                : null;
    }

    @Override
    public void takeOver(UpgradeRequest upgrade) {
        Echo echo = new Echo();
        upgrade.channel().pipeline().addLast(echo);
        String accept = accept(upgrade.request().headers().get("Sec-WebSocket-Key"));
        upgrade.channel()
                .writeAndFlush(Unpooled.copiedBuffer(
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n",
                        StandardCharsets.US_ASCII));
        if (upgrade.leftover().isReadable()) {
            upgrade.channel().pipeline().fireChannelRead(upgrade.leftover());
        } else {
            upgrade.leftover().release();
        }
    }

    private static String accept(String key) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(digest);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Echo extends ChannelInboundHandlerAdapter {
        private ByteBuf buffered = Unpooled.buffer();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            buffered.writeBytes(in);
            in.release();
            while (frame(ctx)) {
                buffered.discardReadBytes();
            }
        }

        /** Echoes one complete frame, if buffered. */
        private boolean frame(ChannelHandlerContext ctx) {
            if (buffered.readableBytes() < 2) {
                return false;
            }
            int start = buffered.readerIndex();
            int first = buffered.getUnsignedByte(start);
            int second = buffered.getUnsignedByte(start + 1);
            long length = second & 0x7F;
            int header = 2;
            if (length == 126) {
                if (buffered.readableBytes() < 4) {
                    return false;
                }
                length = buffered.getUnsignedShort(start + 2);
                header = 4;
            } else if (length == 127) {
                ctx.close(); // not needed by the test
                return false;
            }
            int maskBytes = (second & 0x80) != 0 ? 4 : 0;
            if (buffered.readableBytes() < header + maskBytes + length) {
                return false;
            }
            byte[] payload = new byte[(int) length];
            buffered.getBytes(start + header + maskBytes, payload);
            for (int i = 0; i < payload.length && maskBytes == 4; i++) {
                payload[i] ^= buffered.getByte(start + header + (i & 3));
            }
            buffered.readerIndex(start + header + maskBytes + (int) length);
            ByteBuf out = Unpooled.buffer(payload.length + 4);
            out.writeByte(first);
            if (payload.length < 126) {
                out.writeByte(payload.length);
            } else {
                out.writeByte(126).writeShort(payload.length);
            }
            out.writeBytes(payload);
            if ((first & 0x0F) == 8) {
                ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
                return false;
            }
            ctx.writeAndFlush(out);
            return true;
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            buffered.release();
            buffered = Unpooled.EMPTY_BUFFER;
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ctx.fireChannelInactive();
        }
    }
}
