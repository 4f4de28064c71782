package io.tern.netty.relay;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.tern.stun.address.TransportAddress;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

/**
 * The Linux socket calls of the FFM datagram path, as downcalls into libc. The constants are the
 * same on x86_64 and aarch64 (both use the generic socket ABI), the only platforms it is selected
 * on ({@link UdpIo}). Every call that can fail captures errno, so a full socket (EAGAIN) is told
 * apart from a real error.
 */
final class LinuxUdp {
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int MSG_DONTWAIT = 0x40;
    static final int MSG_TRUNC = 0x20;
    static final int EAGAIN = 11;
    static final int EINTR = 4;

    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_NONBLOCK = 0x800;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1;
    private static final int SO_SNDBUF = 7;
    private static final int SO_RCVBUF = 8;
    private static final int SO_REUSEPORT = 15;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final long ERRNO_OFFSET = CALL_STATE.byteOffset(PathElement.groupElement("errno"));

    private static final MethodHandle SOCKET = downcall("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle SETSOCKOPT = downcall(
            "setsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle BIND = downcall("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle GETSOCKNAME =
            downcall("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle RECVMMSG = downcall(
            "recvmmsg", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle SENDMMSG =
            downcall("sendmmsg", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));

    /** Where one thread's calls leave errno; a thread uses only its own. */
    private final MemorySegment callState;

    private final MemorySegment scratch;

    LinuxUdp(Arena arena) {
        this.callState = arena.allocate(CALL_STATE);
        this.scratch = arena.allocate(64, 8);
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = LINKER.defaultLookup()
                .find(name)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no " + name));
        return LINKER.downcallHandle(symbol, descriptor, Linker.Option.captureCallState("errno"));
    }

    int errno() {
        return callState.get(JAVA_INT, ERRNO_OFFSET);
    }

    /**
     * A non-blocking UDP socket of {@code address}'s family bound to it. IPv6 sockets keep the
     * system's dual-stack default, as Netty's do: a listener on {@code ::} serves IPv4 clients too
     * (their addresses arrive IPv4-mapped, and {@code TransportAddress} reads them as IPv4; an
     * IPv4 recipient is written as {@code sockaddr_in}, which Linux takes on such a socket).
     * {@code receiveBufferBytes}/{@code sendBufferBytes} of 0 keep the system default.
     */
    int openBound(TransportAddress address, boolean reusePort, int receiveBufferBytes, int sendBufferBytes)
            throws IOException {
        int family = address.isIpv4() ? AF_INET : AF_INET6;
        int fd = call("socket", socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC));
        try {
            if (reusePort) {
                setInt(fd, SOL_SOCKET, SO_REUSEPORT, 1);
            }
            if (receiveBufferBytes > 0) {
                setInt(fd, SOL_SOCKET, SO_RCVBUF, receiveBufferBytes);
            }
            if (sendBufferBytes > 0) {
                setInt(fd, SOL_SOCKET, SO_SNDBUF, sendBufferBytes);
            }
            int length = SocketAddresses.write(scratch, 0, address);
            call("bind " + address, bind(fd, length));
            return fd;
        } catch (IOException | RuntimeException e) {
            close(fd);
            throw e;
        }
    }

    /** The address {@code fd} is bound to, into {@code into}. */
    void localAddress(int fd, TransportAddress into) throws IOException {
        MemorySegment length = scratch.asSlice(SocketAddresses.BYTES, 4);
        length.set(JAVA_INT, 0, SocketAddresses.BYTES);
        call("getsockname", getsockname(fd, length));
        SocketAddresses.read(scratch, 0, into, new byte[16]);
    }

    private void setInt(int fd, int level, int option, int value) throws IOException {
        MemorySegment v = scratch.asSlice(SocketAddresses.BYTES, 4);
        v.set(JAVA_INT, 0, value);
        call("setsockopt " + option, setsockopt(fd, level, option, v));
    }

    private int socket(int family, int type) {
        try {
            return (int) SOCKET.invokeExact(callState, family, type, 0);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private int bind(int fd, int length) {
        try {
            return (int) BIND.invokeExact(callState, fd, scratch, length);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private int getsockname(int fd, MemorySegment length) {
        try {
            return (int) GETSOCKNAME.invokeExact(callState, fd, scratch, length);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private int setsockopt(int fd, int level, int option, MemorySegment value) {
        try {
            return (int) SETSOCKOPT.invokeExact(callState, fd, level, option, value, 4);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(callState, fd);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Datagrams received into the {@code count} headers at {@code headers}, or -1 with {@link
     * #errno()} set. Pointers go as plain addresses (LP64), so a call allocates no segment.
     */
    int recvmmsg(int fd, long headers, int count) {
        try {
            return (int) RECVMMSG.invokeExact(callState, fd, headers, count, MSG_DONTWAIT, 0L);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Datagrams sent from the {@code count} headers at {@code headers}, or -1 with {@link #errno()} set. */
    int sendmmsg(int fd, long headers, int count) {
        try {
            return (int) SENDMMSG.invokeExact(callState, fd, headers, count, MSG_DONTWAIT);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private int call(String what, int result) throws IOException {
        if (result < 0) {
            throw new IOException(what + " failed: errno " + errno());
        }
        return result;
    }
}
