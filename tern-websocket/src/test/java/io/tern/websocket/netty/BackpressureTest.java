package io.tern.websocket.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.engine.CloseCodes;
import io.tern.websocket.engine.Frames;
import io.tern.websocket.engine.WebSocketConfig;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A peer that never reads must not make the server buffer without limit. */
@Timeout(60)
class BackpressureTest {
    private static final int MESSAGE_BYTES = 64 * 1024;

    /** Sends as fast as it can from onOpen; records how much the server accepted before giving up. */
    private static final class Flooder implements WebSocketListener {
        final long floodBytes;
        final AtomicLong acceptedBytes = new AtomicLong();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();

        Flooder(long floodBytes) {
            this.floodBytes = floodBytes;
        }

        @Override
        public void onOpen(WebSocketConnection connection) {
            byte[] message = new byte[MESSAGE_BYTES];
            while (acceptedBytes.get() < floodBytes && connection.send(false, message, 0, message.length)) {
                acceptedBytes.addAndGet(message.length);
            }
        }

        @Override
        public void onMessage(WebSocketConnection connection, boolean text, byte[] buf, int offset, int length) {}

        @Override
        public void onClose(WebSocketConnection connection, int code, String reason) {
            closed.complete(code);
        }
    }

    private static Socket nonReadingClient(int port) throws Exception {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        OutputStream out = socket.getOutputStream();
        out.write(Frames.UPGRADE_REQUEST.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return socket;
    }

    @Test
    void exceedingTheSendBoundClosesTheConnectionAtOnce() throws Exception {
        long maxPendingBytes = 1 << 20;
        Flooder flooder = new Flooder(Long.MAX_VALUE);
        BackpressureConfig backpressure = BackpressureConfig.defaults()
                .withMaxPendingWriteBytes(maxPendingBytes)
                .withSlowReaderTimeoutNs(TimeUnit.MINUTES.toNanos(10));
        try (NettyWebSocketServer server = NettyWebSocketServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        1,
                        WebSocketConfig.defaults(),
                        backpressure,
                        () -> flooder);
                Socket client = nonReadingClient(server.port())) {
            assertThat(flooder.closed.get(20, TimeUnit.SECONDS)).isEqualTo(CloseCodes.ABNORMAL);
            // What the kernel's socket buffers absorbed plus the bound plus one held batch; never unbounded.
            assertThat(flooder.acceptedBytes.get()).isLessThan(maxPendingBytes + (16L << 20));
        }
    }

    @Test
    void aReaderThatStaysBlockedPastTheTimeoutIsDisconnected() throws Exception {
        // Enough to pass the high-water mark and fill the socket buffers, well within the hard bound.
        Flooder flooder = new Flooder(24L << 20);
        BackpressureConfig backpressure = BackpressureConfig.defaults()
                .withMaxPendingWriteBytes(1L << 30)
                .withSlowReaderTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300));
        try (NettyWebSocketServer server = NettyWebSocketServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        1,
                        WebSocketConfig.defaults(),
                        backpressure,
                        () -> flooder);
                Socket client = nonReadingClient(server.port())) {
            assertThat(flooder.closed.get(20, TimeUnit.SECONDS)).isEqualTo(CloseCodes.ABNORMAL);
            assertThat(flooder.acceptedBytes.get()).isEqualTo(24L << 20);
        }
    }
}
