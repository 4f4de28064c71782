package io.tern.netty;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The one transport selection of every adapter (relay, WebSocket, and the HTTP, RTMP and SRT
 * listeners): Netty's native epoll transport when the platform has it (recvmmsg, SO_REUSEPORT),
 * else NIO, which supports only one relay thread per listening port.
 */
public final class NettyTransports {
    private NettyTransports() {}

    public static boolean epoll() {
        return Epoll.isAvailable();
    }

    public static String name() {
        return epoll() ? "epoll" : "nio (" + Epoll.unavailabilityCause() + ")";
    }

    public static EventLoopGroup newGroup(int threads, String name) {
        IoHandlerFactory factory = epoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
    }

    public static Class<? extends ServerSocketChannel> serverSocketChannel() {
        return epoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** For outgoing TCP connections (the RTMP push client, WebSocket clients). */
    public static Class<? extends SocketChannel> socketChannel() {
        return epoll() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public static ServerSocketChannel newServerSocketChannel() {
        return epoll() ? new EpollServerSocketChannel() : new NioServerSocketChannel();
    }

    public static SocketChannel newSocketChannel() {
        return epoll() ? new EpollSocketChannel() : new NioSocketChannel();
    }

    @SuppressWarnings("deprecation")
    public static DatagramChannel newDatagramChannel(boolean ipv6) {
        InternetProtocolFamily family = ipv6 ? InternetProtocolFamily.IPv6 : InternetProtocolFamily.IPv4;
        return epoll() ? new EpollDatagramChannel(family) : new NioDatagramChannel(family);
    }
}
