package io.tern.netty.srt;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.srt.Delivery;
import io.tern.srt.SrtEndpoint;
import io.tern.srt.SrtEvent;
import io.tern.srt.Transmit;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Binds one SRT engine to one datagram channel: every read goes into the engine; after each read
 * burst (and each timer) the engine's outputs are drained, with one flush per turn; the timer is
 * armed from {@code nextDeadlineNs()}. The adapter keeps no protocol state.
 */
abstract class SrtDriver extends SimpleChannelInboundHandler<DatagramPacket> {
    private final byte[] in = new byte[2048];
    private final Transmit transmit = new Transmit();
    private final Delivery delivery = new Delivery();
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> timer;
    private long armedForNs = Long.MAX_VALUE;

    abstract SrtEndpoint engine();

    abstract void onDatagram(byte[] b, int len, InetSocketAddress from, long nowNs);

    abstract void onDelivery(Delivery d);

    abstract void onEvent(SrtEvent e);

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        ByteBuf content = packet.content();
        int len = content.readableBytes();
        if (len > in.length) {
            len = in.length; // oversized: the engine drops anything past the MTU
        }
        content.getBytes(content.readerIndex(), in, 0, len);
        onDatagram(in, len, packet.sender(), System.nanoTime());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        drain();
    }

    /** Runs on the event loop: drains outputs, flushes once, re-arms the timer. */
    final void drain() {
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
        arm(engine.nextDeadlineNs());
    }

    private void arm(long deadlineNs) {
        if (deadlineNs == armedForNs && timer != null && !timer.isDone()) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        armedForNs = deadlineNs;
        if (deadlineNs == Long.MAX_VALUE) {
            return;
        }
        long delayNs = Math.max(0, deadlineNs - System.nanoTime());
        timer = ctx.executor().schedule(this::fire, delayNs, TimeUnit.NANOSECONDS);
    }

    private void fire() {
        timer = null;
        armedForNs = Long.MAX_VALUE;
        engine().onTimeout(System.nanoTime());
        drain();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
