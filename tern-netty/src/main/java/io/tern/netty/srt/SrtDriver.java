package io.tern.netty.srt;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.tern.netty.loop.EngineLoop;
import io.tern.netty.loop.LoopClock;
import io.tern.srt.Delivery;
import io.tern.srt.SrtEndpoint;
import io.tern.srt.SrtEvent;
import io.tern.srt.Transmit;
import java.net.InetSocketAddress;

/**
 * Binds one SRT engine to one datagram channel: every read goes into the engine; after each read
 * burst (and each timer) the engine's outputs are drained, with one flush per turn; the driver's
 * {@link EngineLoop} arms the timer from {@code nextDeadlineNs()}, and every time the engine is
 * given is the loop's {@link LoopClock}. The adapter keeps no protocol state.
 */
abstract class SrtDriver extends SimpleChannelInboundHandler<DatagramPacket> implements EngineLoop.Driver {
    private final byte[] in = new byte[2048];
    private final Transmit transmit = new Transmit();
    private final Delivery delivery = new Delivery();
    private ChannelHandlerContext ctx;
    private EngineLoop engineLoop;

    abstract SrtEndpoint engine();

    abstract void onDatagram(byte[] b, int len, InetSocketAddress from, long nowNs);

    abstract void onDelivery(Delivery d);

    abstract void onEvent(SrtEvent e);

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.engineLoop = new EngineLoop(LoopClock.of(ctx.channel().eventLoop()), this);
    }

    /** This turn's time on the loop clock; only on the channel's event loop. */
    final long nowNs() {
        return engineLoop.nowNs();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        ByteBuf content = packet.content();
        int len = content.readableBytes();
        if (len > in.length) {
            len = in.length; // oversized: the engine drops anything past the MTU
        }
        content.getBytes(content.readerIndex(), in, 0, len);
        onDatagram(in, len, packet.sender(), engineLoop.nowNs());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        drain();
    }

    /** Runs on the event loop, after an input: drains outputs, flushes once, re-arms the timer. */
    final void drain() {
        engineLoop.drain();
    }

    @Override
    public final long drainOutputs() {
        SrtEndpoint engine = engine();
        boolean wrote = false;
        while (engine.pollTransmit(transmit)) {
            ByteBuf b = ctx.alloc().directBuffer(transmit.length);
            b.writeBytes(transmit.data, 0, transmit.length);
            ctx.write(new DatagramPacket(b, transmit.remote), ctx.voidPromise());
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
        while (engine.pollDelivery(delivery)) {
            onDelivery(delivery);
        }
        for (SrtEvent e; (e = engine.pollEvent()) != null; ) {
            onEvent(e);
        }
        return engine.nextDeadlineNs();
    }

    @Override
    public final void onTimeout(long nowNs) {
        engine().onTimeout(nowNs);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        engineLoop.close();
    }
}
