package io.tern.netty.relay;

import io.netty.channel.EventLoop;
import io.netty.channel.IoEventLoop;
import io.netty.channel.epoll.EpollIoHandle;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.NettyTransports;
import java.util.Locale;

/**
 * How the relay threads do their UDP I/O: through Netty's datagram channels, or through
 * recvmmsg/sendmmsg called with the FFM API ({@code FfmUdpSockets}), which needs JDK 22+ (where
 * FFM is final), Linux on x86_64 or aarch64 (its struct layouts), and Netty's epoll loop (whose
 * thread it runs on). The FFM classes are compiled for Java 22 and only loaded when chosen, so the
 * build still runs on JDK 21.
 */
public enum UdpIo {
    NETTY,
    FFM,
    /** FFM where it can run, else Netty. */
    AUTO;

    /** Parses {@code netty}, {@code ffm} or {@code auto}; anything else fails naming the value. */
    public static UdpIo parse(String value) {
        for (UdpIo io : values()) {
            if (io.name().toLowerCase(Locale.ROOT).equals(value)) {
                return io;
            }
        }
        throw new IllegalArgumentException("udp-io must be netty, ffm or auto, not '" + value + "'");
    }

    /** Why the FFM path cannot run here, or null if it can. */
    public static String ffmUnavailableReason() {
        if (Runtime.version().feature() < 22) {
            return "JDK " + Runtime.version().feature() + " < 22";
        }
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        if (!os.equals("Linux") || !(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            return os + "/" + arch + " is not Linux x86_64/aarch64";
        }
        if (!NettyTransports.epoll()) {
            return "no epoll transport";
        }
        return null;
    }

    /** NETTY or FFM: what this choice comes to on this JVM; FFM where it cannot run fails, naming why. */
    public UdpIo resolve() {
        String reason = ffmUnavailableReason();
        return switch (this) {
            case NETTY -> NETTY;
            case AUTO -> reason == null ? FFM : NETTY;
            case FFM -> {
                if (reason != null) {
                    throw new IllegalArgumentException("udp-io ffm is not available: " + reason);
                }
                yield FFM;
            }
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The sockets of one shard; call on {@code loop}'s thread with a resolved choice. */
    UdpSockets newSockets(EventLoop loop, EventLoopFlush flush, UdpSocketSettings settings, UdpInput input) {
        if (this == NETTY) {
            return new NettyUdpSockets(loop, flush, settings, input);
        }
        if (this != FFM || !(loop instanceof IoEventLoop io) || !io.isCompatible(EpollIoHandle.class)) {
            throw new IllegalStateException("udp-io " + label() + " on " + loop);
        }
        try {
            return (UdpSockets) Class.forName("io.tern.netty.relay.FfmUdpSockets")
                    .getDeclaredConstructor(IoEventLoop.class, UdpSocketSettings.class, UdpInput.class)
                    .newInstance(io, settings, input);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load the FFM datagram path", e);
        }
    }
}
