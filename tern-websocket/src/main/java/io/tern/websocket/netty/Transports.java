package io.tern.websocket.netty;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/** Native epoll where the platform has it, NIO elsewhere. */
public final class Transports {
    private Transports() {}

    public static boolean epoll() {
        return Epoll.isAvailable();
    }

    public static EventLoopGroup newGroup(int threads) {
        IoHandlerFactory factory = epoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, factory);
    }

    public static Class<? extends ServerChannel> serverChannel() {
        return epoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public static Class<? extends SocketChannel> channel() {
        return epoll() ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
