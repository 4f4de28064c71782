package io.tern.netty.rtmp;

import io.netty.channel.EventLoopGroup;
import io.tern.netty.NettyTransports;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** A listener on a free loopback port with its own event loops, for one test. */
final class ListenerFixture implements AutoCloseable {
    final EventLoopGroup group;
    final RtmpListener listener;

    ListenerFixture(int threads, RtmpListenerSettings settings, RtmpIngestHandler handler) throws InterruptedException {
        group = NettyTransports.newGroup(threads, "rtmp-test");
        listener = RtmpListener.start(group, new InetSocketAddress("127.0.0.1", 0), settings, handler);
    }

    String url(String name) {
        return "rtmp://127.0.0.1:" + listener.localAddress().getPort() + "/live/" + name;
    }

    @Override
    public void close() {
        listener.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
