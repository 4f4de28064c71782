package io.tern.netty.rtmp;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.media.TrackType;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.ChunkWriter;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.handshake.ClientHandshake;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.handshake.ServerHandshake;
import io.tern.rtmp.session.RtmpSettings;
import io.tern.testkit.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input over real sockets, while a good publisher streams on the same listener and event
 * loop: each bad connection gets a clear log line and is closed, and the good stream goes on.
 */
class BadInputSocketTest {
    private static final long HANDSHAKE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);

    private ListenerFixture fixture;
    private RtmpListener listener;
    private final IngestRecorder recorder = new IngestRecorder();
    private final LogCapture log = new LogCapture();
    private final AtomicBoolean streaming = new AtomicBoolean(true);
    private RtmpPushClient good;
    private Thread goodSource;

    /**
     * Loads the engine and the JDK's HMAC provider before the short handshake timeout applies: on
     * a loaded machine their first use alone can take longer than the timeout.
     */
    @BeforeAll
    static void warmUp() throws Exception {
        ClientHandshake client = new ClientHandshake(HandshakeScheme.DIGEST_OFFSET_8);
        ByteWriter c0c1 = new ByteWriter(1537);
        client.start(c0c1, new SplittableRandom(9));
        new ServerHandshake()
                .consume(
                        ByteBuffer.wrap(c0c1.array(), 0, c0c1.length()), new ByteWriter(4096), new SplittableRandom(8));
    }

    @BeforeEach
    void start() throws Exception {
        RtmpSettings engine = RtmpSettings.defaults().toBuilder()
                .handshakeTimeoutNs(HANDSHAKE_TIMEOUT_NS)
                .build();
        // One event loop: the bad connections share the good publisher's thread.
        fixture = new ListenerFixture(1, new RtmpListenerSettings(engine, 100, 8 * 1024, 64 * 1024), recorder);
        listener = fixture.listener;
        good = RtmpPushClient.connect(
                fixture.group,
                URI.create(fixture.url("good")),
                RtmpSettings.defaults(),
                HandshakeScheme.DIGEST_OFFSET_8);
        good.published().get(10, TimeUnit.SECONDS);
        good.sendConfig(SyntheticMedia.AAC, 0);
        goodSource = new Thread(() -> {
            for (long ms = 0; streaming.get() && ms < 600_000; ms += 20) {
                good.sendAccessUnit(SyntheticMedia.audio(ms));
                try {
                    Thread.sleep(20); // pacing a live source, one audio frame per 20 ms: not a wait
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        goodSource.start();
    }

    @AfterEach
    void stop() throws Exception {
        streaming.set(false);
        goodSource.join(5000);
        good.unpublish();
        good.closed().get(10, TimeUnit.SECONDS);
        log.close();
        fixture.close();
    }

    private int goodFrames() {
        return recorder.streams.get("good").track(TrackType.AUDIO).size();
    }

    /** Waits (bounded) until the server closes {@code socket}; returns the milliseconds it took. */
    private static long awaitClose(Socket socket, long boundMs) throws IOException {
        long start = System.nanoTime();
        socket.setSoTimeout((int) boundMs);
        InputStream in = socket.getInputStream();
        byte[] sink = new byte[8192];
        try {
            while (in.read(sink) >= 0) {
                // S0 S1 S2 and whatever else the server still sent
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server did not close the connection within " + boundMs + " ms");
        } catch (IOException reset) {
            // a reset is a close too
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(listener.localAddress(), 5000);
        return socket;
    }

    /** A real handshake on a connected socket; returns the socket ready for chunks. */
    private static Socket handshaken(Socket socket) throws Exception {
        ClientHandshake handshake = new ClientHandshake(HandshakeScheme.PLAIN);
        ByteWriter c0c1 = new ByteWriter(1537);
        handshake.start(c0c1, new SplittableRandom(1));
        OutputStream out = socket.getOutputStream();
        out.write(c0c1.array(), 0, c0c1.length());
        byte[] answer = socket.getInputStream().readNBytes(3073);
        ByteWriter c2 = new ByteWriter(1536);
        handshake.consume(ByteBuffer.wrap(answer), c2, new SplittableRandom(2));
        out.write(c2.array(), 0, c2.length());
        return socket;
    }

    private static byte[] chunk(ChunkWriter writer, int csid, int typeId, byte[] payload) {
        ByteWriter out = new ByteWriter(payload.length + 16);
        writer.write(out, csid, typeId, 0, 0, payload, 0, payload.length);
        return Arrays.copyOf(out.array(), out.length());
    }

    @Test
    void garbageIsClosedAtOnceWithAClearReason() throws Exception {
        int before = goodFrames();
        try (Socket socket = connect()) {
            byte[] garbage = new byte[1000];
            new SplittableRandom(3).nextBytes(garbage);
            garbage[0] = (byte) 0xA5;
            socket.getOutputStream().write(garbage);
            awaitClose(socket, 5000);
        }
        assertThat(log.contains("closed: NOT_RTMP: handshake byte 0 is version 0xa5, not RTMP version 3"))
                .isTrue();
        assertGoodStreamGoesOn(before);
    }

    @Test
    void aTruncatedHandshakeIsClosedAtTheHandshakeTimeout() throws Exception {
        int before = goodFrames();
        try (Socket socket = connect()) {
            byte[] partial = new byte[100];
            partial[0] = 3;
            socket.getOutputStream().write(partial);
            long tookMs = awaitClose(socket, 10_000);
            assertThat(tookMs).as("closed by the 2 s handshake timer").isBetween(1500L, 9000L);
        }
        assertThat(log.contains(
                        "closed: HANDSHAKE_TIMEOUT: handshake not complete after 2000 ms (100 bytes of it received)"))
                .isTrue();
        assertGoodStreamGoesOn(before);
    }

    @Test
    void aHugeChunkSizeIsClosedWithItsValue() throws Exception {
        int before = goodFrames();
        try (Socket socket = handshaken(connect())) {
            socket.getOutputStream()
                    .write(chunk(new ChunkWriter(), 2, MessageType.SET_CHUNK_SIZE, new byte[] {0x7F, -1, -1, -1}));
            awaitClose(socket, 5000);
        }
        assertThat(log.contains(
                        "closed: LIMIT_EXCEEDED: peer set chunk size 2147483647, over the limit of 16777216 bytes"))
                .isTrue();
        assertGoodStreamGoesOn(before);
    }

    @Test
    void aPeerThatNeverReadsIsDroppedAtTheWriteQueueBound() throws Exception {
        int before = goodFrames();
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(listener.localAddress(), 5000);
            OutputStream out = handshaken(socket).getOutputStream();
            // Ping requests, each answered; their answers are never read.
            ChunkWriter writer = new ChunkWriter();
            ByteWriter pings = new ByteWriter(64 * 1024);
            for (int i = 0; i < 4000; i++) {
                writer.write(pings, 2, MessageType.USER_CONTROL, 0, 0, new byte[] {0, 6, 0, 0, 0, (byte) i}, 0, 6);
            }
            try {
                for (int round = 0; round < 400 && !log.contains("write queue over"); round++) {
                    out.write(pings.array(), 0, pings.length());
                }
            } catch (IOException closedMeanwhile) {
                // the server closed while we wrote
            }
        }
        assertThat(log.contains("WARNING RTMP")).isTrue();
        assertThat(log.contains("closed: LOCAL_CLOSE: write queue over 65536 bytes: the peer is not reading"))
                .isTrue();
        assertGoodStreamGoesOn(before);
    }

    private void assertGoodStreamGoesOn(int before) throws Exception {
        Await.await("the good publisher kept streaming", Duration.ofSeconds(10), () -> goodFrames() >= before + 10);
        assertThat(recorder.streams.get("good").ended.getCount())
                .as("and was not ended")
                .isEqualTo(1);
        assertThat(good.closed()).isNotDone();
    }
}
