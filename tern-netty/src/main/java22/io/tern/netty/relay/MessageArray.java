package io.tern.netty.relay;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.tern.stun.address.TransportAddress;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An array of {@code struct mmsghdr} for recvmmsg/sendmmsg, each with one {@code iovec}, an
 * address slot and a data slot of {@code slotBytes}, all in one native allocation made once. The
 * layout is LP64 Linux's (x86_64, aarch64): {@code msghdr} is 56 bytes (name, namelen, iov,
 * iovlen, control, controllen, flags) and {@code mmsghdr} adds {@code msg_len}, 64 in all.
 */
final class MessageArray {
    static final int MMSGHDR_BYTES = 64;
    private static final int IOVEC_BYTES = 16;
    private static final long MSG_NAME = 0;
    private static final long MSG_NAMELEN = 8;
    private static final long MSG_IOV = 16;
    private static final long MSG_IOVLEN = 24;
    private static final long MSG_CONTROL = 32;
    private static final long MSG_CONTROLLEN = 40;
    private static final long MSG_FLAGS = 48;
    private static final long MSG_LEN = 56;

    private final int count;
    private final int slotBytes;
    final MemorySegment headers;
    private final MemorySegment iovecs;
    final MemorySegment names;
    final MemorySegment data;

    MessageArray(Arena arena, int count, int slotBytes) {
        this.count = count;
        this.slotBytes = slotBytes;
        this.headers = arena.allocate((long) count * MMSGHDR_BYTES, 8);
        this.iovecs = arena.allocate((long) count * IOVEC_BYTES, 8);
        this.names = arena.allocate((long) count * SocketAddresses.BYTES, 8);
        this.data = arena.allocate((long) count * slotBytes, 64);
        for (int i = 0; i < count; i++) {
            long h = (long) i * MMSGHDR_BYTES;
            headers.set(ADDRESS, h + MSG_IOV, iovecs.asSlice((long) i * IOVEC_BYTES, IOVEC_BYTES));
            headers.set(JAVA_LONG, h + MSG_IOVLEN, 1);
            headers.set(ADDRESS, h + MSG_CONTROL, MemorySegment.NULL);
            headers.set(JAVA_LONG, h + MSG_CONTROLLEN, 0);
        }
    }

    int count() {
        return count;
    }

    int slotBytes() {
        return slotBytes;
    }

    /** Native address of data slot {@code slot}. */
    long slotAddress(int slot) {
        return data.address() + (long) slot * slotBytes;
    }

    /**
     * Makes entry {@code entry} receive into data slot {@code entry} from {@code dataOffset} to
     * the slot's end, with room for any sender address.
     */
    void prepareReceive(int entry, int dataOffset) {
        long h = (long) entry * MMSGHDR_BYTES;
        headers.set(JAVA_LONG, h + MSG_NAME, names.address() + (long) entry * SocketAddresses.BYTES);
        headers.set(JAVA_INT, h + MSG_NAMELEN, SocketAddresses.IPV6_BYTES);
        headers.set(JAVA_INT, h + MSG_FLAGS, 0);
        headers.set(JAVA_INT, h + MSG_LEN, 0);
        long iov = (long) entry * IOVEC_BYTES;
        iovecs.set(JAVA_LONG, iov, slotAddress(entry) + dataOffset);
        iovecs.set(JAVA_LONG, iov + 8, slotBytes - dataOffset);
    }

    /** Bytes the kernel put in entry {@code entry} (recvmmsg's {@code msg_len}). */
    int receivedLength(int entry) {
        return headers.get(JAVA_INT, (long) entry * MMSGHDR_BYTES + MSG_LEN);
    }

    /** Whether the datagram of entry {@code entry} was longer than its slot and was cut (MSG_TRUNC). */
    boolean truncated(int entry) {
        return (headers.get(JAVA_INT, (long) entry * MMSGHDR_BYTES + MSG_FLAGS) & LinuxUdp.MSG_TRUNC) != 0;
    }

    /** The sender of entry {@code entry}, into {@code into}; false for an unknown address family. */
    boolean sender(int entry, TransportAddress into, byte[] ipv6Scratch) {
        return SocketAddresses.read(names, (long) entry * SocketAddresses.BYTES, into, ipv6Scratch);
    }

    /** Writes {@code recipient} into address slot {@code slot}; returns its length. */
    int writeRecipient(int slot, TransportAddress recipient) {
        return SocketAddresses.write(names, (long) slot * SocketAddresses.BYTES, recipient);
    }

    /**
     * Makes entry {@code entry} send {@code length} bytes of data slot {@code slot} to the address
     * in address slot {@code slot} ({@code nameLength} bytes of it).
     */
    void prepareSend(int entry, int slot, int nameLength, long dataAddress, int length) {
        long h = (long) entry * MMSGHDR_BYTES;
        headers.set(JAVA_LONG, h + MSG_NAME, names.address() + (long) slot * SocketAddresses.BYTES);
        headers.set(JAVA_INT, h + MSG_NAMELEN, nameLength);
        headers.set(JAVA_INT, h + MSG_FLAGS, 0);
        headers.set(JAVA_INT, h + MSG_LEN, 0);
        long iov = (long) entry * IOVEC_BYTES;
        iovecs.set(JAVA_LONG, iov, dataAddress);
        iovecs.set(JAVA_LONG, iov + 8, length);
    }

    /** Native address of the header of entry {@code entry}, for a recvmmsg/sendmmsg from there on. */
    long headerAddress(int entry) {
        return headers.address() + (long) entry * MMSGHDR_BYTES;
    }
}
