package io.tern.netty.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.engine.BackpressureConfig;
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

/**
 * A peer that never reads, over a real socket: the server must not buffer without limit, tells
 * the application it is unwritable, stops reading from it, and drops it at the hard cap or after
 * the slow-reader timeout (the engine's rules are tested on a fake clock in tern-websocket).
 */
@Timeout(60)
class SlowReaderTest {
    private static final int MESSAGE_BYTES = 64 * 1024;

    /**
     * Sends as fast as it can from onOpen until refused (or, if asked, until unwritable, resuming
     * once writable again: a well-behaved producer); records what was accepted.
     */
    private static final class Flooder implements WebSocketListener {
        final long floodBytes;
        final boolean stopWhenUnwritable;
        final AtomicLong acceptedBytes = new AtomicLong();
        final CompletableFuture<Boolean> unwritable = new CompletableFuture<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();

        Flooder(long floodBytes, boolean stopWhenUnwritable) {
            this.floodBytes = floodBytes;
            this.stopWhenUnwritable = stopWhenUnwritable;
        }

        @Override
        public void onOpen(WebSocketConnection connection) {
            flood(connection);
        }

        private void flood(WebSocketConnection connection) {
            byte[] message = new byte[MESSAGE_BYTES];
            while (acceptedBytes.get() < floodBytes
                    && !(stopWhenUnwritable && !connection.isWritable())
                    && connection.send(false, message, 0, message.length)) {
                acceptedBytes.addAndGet(message.length);
            }
        }

        @Override
        public void onMessage(WebSocketConnection connection, boolean text, byte[] buf, int offset, int length) {}

        @Override
        public void onWritabilityChanged(WebSocketConnection connection, boolean writable) {
            if (!writable) {
                unwritable.complete(true);
            } else {
                flood(connection);
            }
        }

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

    private static WebSocketServer server(BackpressureConfig limits, Flooder flooder) throws InterruptedException {
        return WebSocketServer.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                1,
                new WebSocketEndpoint(WebSocketConfig.defaults().withBackpressure(limits), request -> flooder));
    }

    @Test
    void passingTheHardCapClosesTheConnectionAtOnce() throws Exception {
        long maxQueuedBytes = 1 << 20;
        Flooder flooder = new Flooder(Long.MAX_VALUE, false);
        BackpressureConfig limits = BackpressureConfig.defaults()
                .withWaterMarks(64 * 1024, 256 * 1024)
                .withMaxQueuedBytes(maxQueuedBytes)
                .withSlowReaderTimeoutNs(TimeUnit.MINUTES.toNanos(10));
        try (WebSocketServer server = server(limits, flooder);
                Socket client = nonReadingClient(server.port())) {
            assertThat(flooder.closed.get(20, TimeUnit.SECONDS)).isEqualTo(CloseCodes.ABNORMAL);
            assertThat(flooder.unwritable).isCompletedWithValue(true);
            // What the kernel's socket buffers absorbed plus the cap; never unbounded.
            assertThat(flooder.acceptedBytes.get()).isLessThan(maxQueuedBytes + (16L << 20));
        }
    }

    @Test
    void aReaderThatStaysBlockedPastTheTimeoutIsDisconnected() throws Exception {
        // Stops at the high water mark, well within the hard cap: only the timeout can end it.
        Flooder flooder = new Flooder(Long.MAX_VALUE, true);
        BackpressureConfig limits = BackpressureConfig.defaults()
                .withMaxQueuedBytes(1L << 30)
                .withSlowReaderTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300));
        try (WebSocketServer server = server(limits, flooder);
                Socket client = nonReadingClient(server.port())) {
            assertThat(flooder.unwritable.get(20, TimeUnit.SECONDS)).isTrue();
            assertThat(flooder.closed.get(20, TimeUnit.SECONDS)).isEqualTo(CloseCodes.ABNORMAL);
            assertThat(flooder.acceptedBytes.get()).isLessThan(1L << 30);
        }
    }
}
