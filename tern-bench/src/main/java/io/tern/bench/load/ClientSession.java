package io.tern.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.bench.client.ChannelData;
import io.tern.bench.client.RestCredentials;
import io.tern.bench.client.Stun;
import io.tern.bench.client.StunMessage;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One TURN client: one socket (UDP) or connection (TCP/TLS) to the server, one allocation, one
 * permission and one channel towards its worker's echo peer. Confined to its worker's event loop.
 */
final class ClientSession {
    static final int CHANNEL = ChannelData.MIN_CHANNEL;
    private static final long[] RETRANSMIT_MS = {250, 500, 1000, 2000};
    private static final long TRANSACTION_TIMEOUT_MS = 6000;

    final Worker worker;
    final int localIndex;
    final int globalIndex;
    private final Channel channel;
    private final InetSocketAddress server;
    private final boolean stream;
    /** Stream transports and connected UDP sockets write bare frames; unconnected UDP writes to {@link #server}. */
    private final boolean bareFrames;

    private final RestCredentials credentials;

    private String realm;
    private String nonce;
    private byte[] key;
    /** Requests after the first Allocate go without credentials (a server without authentication). */
    private boolean unsigned;

    InetSocketAddress relayed;
    boolean dirty;

    private byte[] pendingId;
    private CompletableFuture<StunMessage> pending;
    private ScheduledFuture<?> retransmit;

    ClientSession(
            Worker worker,
            int localIndex,
            int globalIndex,
            Channel channel,
            InetSocketAddress server,
            boolean stream,
            boolean connected,
            RestCredentials credentials) {
        this.worker = worker;
        this.localIndex = localIndex;
        this.globalIndex = globalIndex;
        this.channel = channel;
        this.server = server;
        this.stream = stream;
        this.bareFrames = stream || connected;
        this.credentials = credentials;
    }

    Channel channel() {
        return channel;
    }

    /** Writes (does not flush) a frame towards the server. */
    void write(ByteBuf frame) {
        channel.write(bareFrames ? frame : new DatagramPacket(frame, server), channel.voidPromise());
    }

    /** Called on the event loop with one complete frame (STUN or ChannelData); does not release it. */
    void onFrame(ByteBuf frame) {
        if (frame.readableBytes() < 4) {
            worker.tracker().corrupt();
            return;
        }
        int first = frame.getUnsignedByte(frame.readerIndex());
        if (Stun.isChannelData(first)) {
            worker.onChannelData(this, frame);
        } else if (Stun.isStun(first)) {
            onStun(frame);
        } else {
            worker.tracker().corrupt();
        }
    }

    private void onStun(ByteBuf frame) {
        byte[] bytes = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), bytes);
        StunMessage m;
        try {
            m = StunMessage.decode(bytes, 0, bytes.length);
        } catch (IllegalArgumentException e) {
            return;
        }
        if (pending == null || !m.sameTransaction(pendingId)) {
            return; // a retransmission's second answer, or unsolicited
        }
        if (key != null && m.find(Stun.ATTR_MESSAGE_INTEGRITY) != null && !m.verifyIntegrity(bytes, 0, key)) {
            finish(null, new IllegalStateException("server response failed MESSAGE-INTEGRITY check"));
            return;
        }
        finish(m, null);
    }

    private void finish(StunMessage m, Throwable error) {
        CompletableFuture<StunMessage> f = pending;
        pending = null;
        pendingId = null;
        if (retransmit != null) {
            retransmit.cancel(false);
            retransmit = null;
        }
        if (error != null) {
            f.completeExceptionally(error);
        } else {
            f.complete(m);
        }
    }

    private CompletableFuture<StunMessage> transact(StunMessage request, boolean authenticated) {
        if (authenticated) {
            request.addString(Stun.ATTR_USERNAME, credentials.username())
                    .addString(Stun.ATTR_REALM, realm)
                    .addString(Stun.ATTR_NONCE, nonce);
        }
        byte[] bytes = request.encode(authenticated ? key : null, true, (byte) 0);
        CompletableFuture<StunMessage> f = new CompletableFuture<>();
        pending = f;
        pendingId = request.transactionId();
        long startNs = System.nanoTime();
        send(bytes);
        scheduleRetransmit(bytes, 0, startNs);
        return f;
    }

    private void scheduleRetransmit(byte[] bytes, int attempt, long startNs) {
        long delayMs = stream ? TRANSACTION_TIMEOUT_MS : RETRANSMIT_MS[Math.min(attempt, RETRANSMIT_MS.length - 1)];
        retransmit = channel.eventLoop()
                .schedule(
                        () -> {
                            if (pending == null) {
                                return;
                            }
                            if (stream
                                    || System.nanoTime() - startNs
                                            > TimeUnit.MILLISECONDS.toNanos(TRANSACTION_TIMEOUT_MS)) {
                                finish(
                                        null,
                                        new TimeoutException(
                                                "no answer from " + server + " for client " + globalIndex));
                                return;
                            }
                            send(bytes);
                            scheduleRetransmit(bytes, attempt + 1, startNs);
                        },
                        delayMs,
                        TimeUnit.MILLISECONDS);
    }

    private void send(byte[] bytes) {
        write(Unpooled.wrappedBuffer(bytes));
        channel.flush();
    }

    /**
     * Allocate (401 challenge, then authenticated), CreatePermission, ChannelBind. Call on the
     * event loop. With {@code noAuth} (a server without authentication, the benchmark's minimal
     * forwarder) the first Allocate must succeed and the other requests go unsigned.
     */
    CompletableFuture<Void> setup(InetSocketAddress peer, boolean noAuth) {
        StunMessage probe = StunMessage.request(Stun.METHOD_ALLOCATE)
                .addInt(Stun.ATTR_REQUESTED_TRANSPORT, Stun.PROTOCOL_UDP << 24);
        return transact(probe, false)
                .thenCompose(r -> {
                    if (noAuth) {
                        unsigned = true;
                        if (r.messageClass() != Stun.CLASS_SUCCESS) {
                            throw new IllegalStateException("unauthenticated Allocate refused: " + describe(r));
                        }
                        return CompletableFuture.completedFuture(r);
                    }
                    if (r.errorCode() != 401) {
                        throw new IllegalStateException("expected 401 to unauthenticated Allocate, got " + describe(r));
                    }
                    realm = r.string(Stun.ATTR_REALM);
                    nonce = r.string(Stun.ATTR_NONCE);
                    if (realm == null || nonce == null) {
                        throw new IllegalStateException("401 without REALM/NONCE");
                    }
                    key = credentials.longTermKey(realm);
                    return authenticated(
                            Stun.METHOD_ALLOCATE,
                            m -> m.addInt(Stun.ATTR_REQUESTED_TRANSPORT, Stun.PROTOCOL_UDP << 24),
                            true);
                })
                .thenCompose(r -> {
                    StunMessage.Attribute a = r.find(Stun.ATTR_XOR_RELAYED_ADDRESS);
                    if (a == null) {
                        throw new IllegalStateException("Allocate success without XOR-RELAYED-ADDRESS");
                    }
                    relayed = Stun.decodeXorAddress(a.value(), r.transactionId());
                    return authenticated(
                            Stun.METHOD_CREATE_PERMISSION,
                            m -> m.add(Stun.ATTR_XOR_PEER_ADDRESS, Stun.xorAddress(peer, m.transactionId())),
                            true);
                })
                .thenCompose(r -> authenticated(
                        Stun.METHOD_CHANNEL_BIND,
                        m -> m.add(
                                        Stun.ATTR_CHANNEL_NUMBER,
                                        ByteBuffer.allocate(4)
                                                .putShort((short) CHANNEL)
                                                .array())
                                .add(Stun.ATTR_XOR_PEER_ADDRESS, Stun.xorAddress(peer, m.transactionId())),
                        true))
                .thenApply(r -> null);
    }

    private CompletableFuture<StunMessage> authenticated(
            int method, java.util.function.Consumer<StunMessage> body, boolean retryStaleNonce) {
        StunMessage m = StunMessage.request(method);
        body.accept(m);
        return transact(m, !unsigned).thenCompose(r -> {
            if (r.errorCode() == 438 && retryStaleNonce && r.string(Stun.ATTR_NONCE) != null) {
                nonce = r.string(Stun.ATTR_NONCE);
                return authenticated(method, body, false);
            }
            if (r.messageClass() != Stun.CLASS_SUCCESS) {
                throw new IllegalStateException("method 0x" + Integer.toHexString(method) + " failed: " + describe(r));
            }
            return CompletableFuture.completedFuture(r);
        });
    }

    private static String describe(StunMessage r) {
        String reason = "";
        StunMessage.Attribute e = r.find(Stun.ATTR_ERROR_CODE);
        if (e != null && e.value().length > 4) {
            reason = " " + new String(e.value(), 4, e.value().length - 4, java.nio.charset.StandardCharsets.UTF_8);
        }
        return "type 0x" + Integer.toHexString(r.messageType()) + " error " + r.errorCode() + reason;
    }
}
