package io.tern.netty.relay;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import io.tern.stun.address.TransportAddress;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * {@code sockaddr_in} and {@code sockaddr_in6} in native memory: the family in host order, the
 * port and the address in network order. A slot of {@value #BYTES} bytes holds either.
 */
final class SocketAddresses {
    /** A slot: {@code sizeof(struct sockaddr_in6)} is 28, rounded up to keep slots 8-byte aligned. */
    static final int BYTES = 32;
    /** What the kernel may write into a slot. */
    static final int IPV6_BYTES = 28;

    private static final int IPV4_BYTES = 16;
    private static final ValueLayout.OfShort NETWORK_SHORT = JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt NETWORK_INT = JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private SocketAddresses() {}

    /** Writes {@code address} at {@code offset}; returns its length, for {@code msg_namelen}. */
    static int write(MemorySegment segment, long offset, TransportAddress address) {
        for (int i = 0; i < BYTES; i += 8) {
            segment.set(JAVA_LONG_UNALIGNED, offset + i, 0L);
        }
        segment.set(NETWORK_SHORT, offset + 2, (short) address.port());
        if (address.isIpv4()) {
            segment.set(JAVA_SHORT_UNALIGNED, offset, (short) LinuxUdp.AF_INET);
            segment.set(NETWORK_INT, offset + 4, address.ipv4());
            return IPV4_BYTES;
        }
        segment.set(JAVA_SHORT_UNALIGNED, offset, (short) LinuxUdp.AF_INET6);
        byte[] ip = address.ipv6Bytes();
        for (int i = 0; i < 16; i++) {
            segment.set(JAVA_BYTE, offset + 8 + i, ip[i]);
        }
        return IPV6_BYTES;
    }

    /**
     * Reads the address at {@code offset} into {@code into}; false for a family other than IPv4
     * and IPv6 (which a UDP socket never reports). {@code ipv6} is 16 bytes of scratch.
     */
    static boolean read(MemorySegment segment, long offset, TransportAddress into, byte[] ipv6) {
        int family = segment.get(JAVA_SHORT_UNALIGNED, offset);
        int port = segment.get(NETWORK_SHORT, offset + 2) & 0xFFFF;
        if (family == LinuxUdp.AF_INET) {
            into.setIpv4(segment.get(NETWORK_INT, offset + 4), port);
            return true;
        }
        if (family == LinuxUdp.AF_INET6) {
            MemorySegment.copy(segment, JAVA_BYTE, offset + 8, ipv6, 0, 16);
            into.setIpv6(ipv6, 0, port);
            return true;
        }
        return false;
    }
}
