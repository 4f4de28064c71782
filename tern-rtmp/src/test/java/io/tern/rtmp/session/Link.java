package io.tern.rtmp.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpEvent.PublishRequested;
import io.tern.rtmp.session.RtmpEvent.PublishStarted;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A client session and a server session joined in memory, with a simulated clock. Bytes move in
 * pieces of random size, so every split of the stream is exercised; nothing sleeps.
 */
final class Link {
    final RtmpServerSession server;
    final RtmpClientSession client;
    final List<RtmpEvent> serverEvents = new ArrayList<>();
    final List<RtmpEvent> clientEvents = new ArrayList<>();
    final SplittableRandom random;
    long nowNs = TimeUnit.SECONDS.toNanos(1000);
    /** What the server sent and what the client sent, decoded. */
    final Tap toClient = new Tap();

    final Tap toServer = new Tap();
    /** Set to hold what the client writes instead of delivering it (a stalled network). */
    boolean holdClientBytes;

    private final List<byte[]> held = new ArrayList<>();

    Link(RtmpSettings serverSettings, RtmpSettings clientSettings, HandshakeScheme scheme, long seed) {
        random = new SplittableRandom(seed);
        server = new RtmpServerSession(serverSettings, random.split(), nowNs);
        client = new RtmpClientSession(
                clientSettings,
                new RtmpClientSession.Target("live", "rtmp://127.0.0.1/live", "cam?token=abc"),
                scheme,
                random.split(),
                nowNs);
    }

    Link(long seed) {
        this(RtmpSettings.defaults(), RtmpSettings.defaults(), HandshakeScheme.DIGEST_OFFSET_8, seed);
    }

    /** Moves bytes both ways until neither side has anything to write. */
    void pump() {
        for (int round = 0; round < 10_000; round++) {
            boolean moved = move(client, server, serverEvents, !holdClientBytes);
            moved |= move(server, client, clientEvents, true);
            drainEvents();
            if (!moved) {
                return;
            }
        }
        throw new AssertionError("the sessions never went quiet");
    }

    private boolean move(RtmpSession from, RtmpSession to, List<RtmpEvent> toEvents, boolean deliver) {
        if (from.pendingWriteBytes() == 0) {
            return false;
        }
        byte[][] taken = new byte[1][];
        from.drainWrites((b, off, len) -> taken[0] = Arrays.copyOfRange(b, off, off + len));
        (from == server ? toClient : toServer).bytes(taken[0]);
        if (!deliver) {
            held.add(taken[0]);
            return false;
        }
        feed(to, taken[0]);
        return true;
    }

    /** Feeds bytes to a session in random pieces. */
    void feed(RtmpSession to, byte[] bytes) {
        for (int at = 0; at < bytes.length; ) {
            int n = Math.min(bytes.length - at, 1 + random.nextInt(random.nextBoolean() ? 16 : 9000));
            ByteBuffer piece = ByteBuffer.wrap(bytes, at, n);
            to.onBytes(piece, nowNs);
            assertThat(piece.hasRemaining()).as("input is consumed").isFalse();
            at += n;
        }
    }

    void releaseHeldBytes() {
        for (byte[] b : held) {
            feed(server, b);
        }
        held.clear();
        drainEvents();
    }

    void drainEvents() {
        for (RtmpEvent e; (e = server.pollEvent()) != null; ) {
            serverEvents.add(e);
        }
        for (RtmpEvent e; (e = client.pollEvent()) != null; ) {
            clientEvents.add(e);
        }
    }

    void advance(long ns) {
        nowNs += ns;
        server.onTimeout(nowNs);
        client.onTimeout(nowNs);
        pump();
    }

    /** Runs the handshake, connect and publish; the server accepts. */
    void publish() {
        pump();
        PublishRequested request = first(serverEvents, PublishRequested.class);
        assertThat(server.acceptPublish(request.messageStreamId(), nowNs)).isTrue();
        pump();
        first(clientEvents, PublishStarted.class);
    }

    static <T extends RtmpEvent> T first(List<RtmpEvent> events, Class<T> type) {
        return events.stream()
                .filter(type::isInstance)
                .map(type::cast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " in " + events));
    }

    static <T extends RtmpEvent> List<T> all(List<RtmpEvent> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
