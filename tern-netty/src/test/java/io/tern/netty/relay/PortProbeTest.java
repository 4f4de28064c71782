package io.tern.netty.relay;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PortProbeTest {
    @Test
    void aUdpPortHeldWithSoReusePortIsReportedBusy() throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try {
            Channel holder = new Bootstrap()
                    .group(group)
                    .channel(EpollDatagramChannel.class)
                    .option(EpollChannelOption.SO_REUSEPORT, true)
                    .handler(new ChannelInboundHandlerAdapter())
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .sync()
                    .channel();
            InetSocketAddress held = (InetSocketAddress) holder.localAddress();
            assertThatThrownBy(() -> PortProbe.requireFreeUdp(held))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("already in use");
            holder.close().sync();
            assertThatCode(() -> PortProbe.requireFreeUdp(held)).doesNotThrowAnyException();
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void aListeningTcpPortIsReportedBusy() throws Exception {
        try (ServerSocket holder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress held = (InetSocketAddress) holder.getLocalSocketAddress();
            assertThatThrownBy(() -> PortProbe.requireFreeTcp(held)).hasMessageContaining("already in use");
        }
    }
}
