package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.concurrent.Future;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TurnEngine;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@link UdpSockets} over recvmmsg/sendmmsg called through the FFM API, on the shard's own Netty
 * epoll loop: each socket is registered with the loop as an {@link EpollIoHandle}
 * (level-triggered), so the loop's thread stays the only owner of the engine and its timer.
 *
 * <p>One receive array per shard: a wake-up reads up to a batch of datagrams in one recvmmsg,
 * and each is handed to the engine in place, as a view over its slot. What the engine sends is
 * copied into the shard's send array (so nothing refers to a receive slot once the next read
 * starts) and leaves at the end of the loop's turn, one sendmmsg per socket, or earlier when the
 * array is full. Nothing is allocated per datagram; the arrays are freed with the sockets.
 */
final class FfmUdpSockets implements UdpSockets {
    /** Datagrams one recvmmsg may return, and sends queued before the send array is flushed. */
    static final int BATCH = 64;
    /** The relay socket of one allocation gets a smaller share of a turn than a listener. */
    private static final int RELAY_BATCH = 16;
    /**
     * Datagrams up to this long are received whole; longer ones are cut (MSG_TRUNC) and dropped.
     * The same bound as the Netty path's, whose 2052-byte slots cannot tell a full slot from a cut datagram.
     */
    static final int RECEIVE_BYTES = RelayShard.DATAGRAM_BYTES + TurnEngine.PEER_PACKET_HEADROOM - 1;

    private static final int RECEIVE_SLOT_BYTES = TurnEngine.PEER_PACKET_HEADROOM + RECEIVE_BYTES;
    /** What the engine sends is at most a relayed datagram in a Data indication; longer goes alone. */
    private static final int SEND_SLOT_BYTES = 4096;
    /** A datagram from a TCP client may be as long as UDP allows. */
    private static final int LARGEST_DATAGRAM_BYTES = 65535;

    private final IoEventLoop loop;
    private final UdpSocketSettings settings;
    private final UdpInput input;
    private final Arena arena = Arena.ofShared();
    private final LinuxUdp os = new LinuxUdp(arena);
    private final MessageArray received = new MessageArray(arena, BATCH, RECEIVE_SLOT_BYTES);
    private final MessageArray queued = new MessageArray(arena, BATCH, SEND_SLOT_BYTES);
    private final MessageArray large = new MessageArray(arena, 1, LARGEST_DATAGRAM_BYTES);
    private final Int2ObjectHashMap<Socket> listeners = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<Socket> relays = new Int2ObjectHashMap<>();
    private final TransportAddress sender = new TransportAddress();
    private final byte[] ipv6Scratch = new byte[16];
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer sendView = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer largeView = new UnsafeBuffer(0, 0);
    private final Runnable flushTask = this::flush;

    /** The socket, name length and byte count of each queued send, in order. */
    private final Socket[] queuedSocket = new Socket[BATCH];

    private final int[] queuedNameLength = new int[BATCH];
    private final int[] queuedLength = new int[BATCH];
    private int queuedCount;
    private boolean flushScheduled;
    private boolean closed;

    FfmUdpSockets(IoEventLoop loop, UdpSocketSettings settings, UdpInput input) {
        this.loop = loop;
        this.settings = settings;
        this.input = input;
        sendView.wrap(queued.data.address(), (int) queued.data.byteSize());
        largeView.wrap(large.data.address(), (int) large.data.byteSize());
        for (int i = 0; i < BATCH; i++) {
            received.prepareReceive(i, TurnEngine.PEER_PACKET_HEADROOM);
        }
    }

    @Override
    public InetSocketAddress bindListener(int listenerId, InetSocketAddress address) throws IOException {
        Socket socket = open(TransportAddress.of(address), true, listenerId, true);
        if (socket == null) {
            throw new IOException("cannot bind UDP " + address);
        }
        listeners.put(listenerId, socket);
        TransportAddress local = new TransportAddress();
        os.localAddress(socket.fd, local);
        return local.toInetSocketAddress();
    }

    @Override
    public boolean openRelay(int relayId, TransportAddress address) {
        Socket socket;
        try {
            socket = open(address, false, relayId, false);
        } catch (IOException e) {
            return false;
        }
        if (socket == null) {
            return false;
        }
        relays.put(relayId, socket);
        return true;
    }

    /** A bound socket registered with the loop for reading; null if the loop would not take it. */
    private Socket open(TransportAddress address, boolean listener, int id, boolean reusePort) throws IOException {
        int fd = os.openBound(address, reusePort, settings.receiveBufferBytes(), settings.sendBufferBytes());
        Socket socket = new Socket(fd, listener, id);
        Future<IoRegistration> registered = loop.register(socket);
        if (!registered.isDone() || !registered.isSuccess()) {
            os.close(fd);
            return null;
        }
        socket.registration = registered.getNow();
        socket.registration.submit(EpollIoOps.EPOLLIN);
        return socket;
    }

    @Override
    public boolean closeRelay(int relayId) {
        Socket socket = relays.remove(relayId);
        if (socket == null) {
            return false;
        }
        discardQueued(socket);
        socket.close();
        return true;
    }

    @Override
    public void sendToClient(
            int listenerId, TransportAddress recipient, DirectBuffer bytes, int offset, int length, ByteBuf inPlace) {
        Socket socket = listeners.get(listenerId);
        if (socket != null) {
            queue(socket, recipient, bytes, offset, length);
        }
    }

    @Override
    public void sendToPeer(
            int relayId, TransportAddress recipient, DirectBuffer bytes, int offset, int length, ByteBuf inPlace) {
        Socket socket = relays.get(relayId);
        if (socket != null) {
            queue(socket, recipient, bytes, offset, length);
        }
    }

    @Override
    public void closeAll() {
        flush();
        for (Socket socket : listeners.values()) {
            socket.close();
        }
        for (Socket socket : relays.values()) {
            socket.close();
        }
        listeners.clear();
        relays.clear();
        closed = true;
        arena.close();
    }

    // ---------------------------------------------------------------------------------------------
    // Sending

    private void queue(Socket socket, TransportAddress recipient, DirectBuffer bytes, int offset, int length) {
        if (length > SEND_SLOT_BYTES) {
            sendLarge(socket, recipient, bytes, offset, length);
            return;
        }
        if (queuedCount == BATCH) {
            flush();
        }
        int slot = queuedCount++;
        queuedSocket[slot] = socket;
        queuedLength[slot] = length;
        queuedNameLength[slot] = queued.writeRecipient(slot, recipient);
        sendView.putBytes(slot * SEND_SLOT_BYTES, bytes, offset, length);
        if (!flushScheduled) {
            flushScheduled = true;
            loop.execute(flushTask);
        }
    }

    /** A datagram longer than a send slot: what is queued goes first, to keep the order, then this alone. */
    private void sendLarge(Socket socket, TransportAddress recipient, DirectBuffer bytes, int offset, int length) {
        if (length > LARGEST_DATAGRAM_BYTES) {
            input.drop(DropReason.OVERSIZED);
            return;
        }
        flush();
        int nameLength = large.writeRecipient(0, recipient);
        largeView.putBytes(0, bytes, offset, length);
        large.prepareSend(0, 0, nameLength, large.slotAddress(0), length);
        if (os.sendmmsg(socket.fd, large.headerAddress(0), 1) != 1) {
            input.drop(socket.backpressure());
        }
    }

    @Override
    public void flushQueued() {
        flush();
    }

    /** Sends everything queued: one sendmmsg per socket, in the order each socket's datagrams were queued. */
    void flush() {
        flushScheduled = false;
        int count = queuedCount;
        if (count == 0 || closed) {
            return;
        }
        queuedCount = 0;
        for (int first = 0; first < count; first++) {
            Socket socket = queuedSocket[first];
            if (socket == null) {
                continue;
            }
            int entries = 0;
            for (int slot = first; slot < count; slot++) {
                if (queuedSocket[slot] == socket) {
                    queued.prepareSend(
                            entries++,
                            slot,
                            queuedNameLength[slot],
                            queued.slotAddress(slot),
                            queuedLength[slot]);
                    queuedSocket[slot] = null;
                }
            }
            send(socket, entries);
        }
    }

    /** Sends the first {@code entries} headers through {@code socket}; what the socket will not take is dropped and counted. */
    private void send(Socket socket, int entries) {
        int sent = 0;
        while (sent < entries) {
            int n = os.sendmmsg(socket.fd, queued.headerAddress(sent), entries - sent);
            if (n > 0) {
                sent += n;
                continue;
            }
            int errno = os.errno();
            if (n < 0 && errno == LinuxUdp.EINTR) {
                continue;
            }
            if (n < 0 && errno == LinuxUdp.EAGAIN) {
                for (; sent < entries; sent++) {
                    input.drop(socket.backpressure());
                }
                return;
            }
            // Any other error belongs to the first datagram (an address the socket cannot reach): skip it.
            input.drop(socket.backpressure());
            sent++;
        }
    }

    /** A socket being closed takes its queued datagrams with it. */
    private void discardQueued(Socket socket) {
        for (int slot = 0; slot < queuedCount; slot++) {
            if (queuedSocket[slot] == socket) {
                queuedSocket[slot] = null;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Receiving

    /** One wake-up of a readable socket: at most one batch, so every ready socket gets its turn. */
    private void read(Socket socket) {
        int n = os.recvmmsg(socket.fd, received.headerAddress(0), socket.listener ? BATCH : RELAY_BATCH);
        for (int i = 0; i < n; i++) {
            if (!socket.closed) {
                deliver(socket, i);
            }
            // The kernel wrote the name length, flags and length of the entries it filled.
            received.prepareReceive(i, TurnEngine.PEER_PACKET_HEADROOM);
        }
        if (n > 0 && !socket.listener && !socket.closed) {
            input.onRelayReadDone(socket.id);
        }
    }

    private void deliver(Socket socket, int entry) {
        if (received.truncated(entry)) {
            input.drop(DropReason.OVERSIZED);
            return;
        }
        if (!received.sender(entry, sender, ipv6Scratch)) {
            return;
        }
        int length = received.receivedLength(entry);
        view.wrap(received.slotAddress(entry), RECEIVE_SLOT_BYTES);
        if (socket.listener) {
            input.onClientDatagram(socket.id, sender, null, view, TurnEngine.PEER_PACKET_HEADROOM, length);
        } else {
            input.onPeerDatagram(socket.id, sender, null, view, TurnEngine.PEER_PACKET_HEADROOM, length);
        }
    }

    /** One socket: its descriptor, what it is, and its registration with the loop. */
    private final class Socket implements EpollIoHandle {
        final int fd;
        final boolean listener;
        final int id;
        private final FileDescriptor descriptor;
        IoRegistration registration;
        boolean closed;

        Socket(int fd, boolean listener, int id) {
            this.fd = fd;
            this.listener = listener;
            this.id = id;
            this.descriptor = new FileDescriptor(fd);
        }

        DropReason backpressure() {
            return listener ? DropReason.CLIENT_BACKPRESSURE : DropReason.PEER_BACKPRESSURE;
        }

        @Override
        public FileDescriptor fd() {
            return descriptor;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            if (!closed) {
                read(this);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (registration != null) {
                registration.cancel();
            }
            os.close(fd);
        }
    }
}
