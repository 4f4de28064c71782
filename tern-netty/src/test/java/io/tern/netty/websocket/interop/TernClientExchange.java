package io.tern.netty.websocket.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.websocket.WebSocketClient;
import io.tern.netty.websocket.WebSocketConnection;
import io.tern.netty.websocket.WebSocketListener;
import io.tern.websocket.deflate.CodecPool;
import io.tern.websocket.deflate.DeflateParameters;
import io.tern.websocket.deflate.PerMessageDeflateConfig;
import io.tern.websocket.engine.CloseCodes;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Tern's Netty client against a foreign echo server: the same exchange for every peer. */
final class TernClientExchange {
    private record Received(boolean text, byte[] payload) {}

    private TernClientExchange() {}

    /** Runs the exchange and returns the negotiated deflate parameters (null when uncompressed). */
    static DeflateParameters run(URI uri, boolean deflate, int autoFragmentBytes) throws Exception {
        WebSocketConfig config =
                WebSocketConfig.defaults().withLimits(8 << 20, 8 << 20).withAutoFragmentBytes(autoFragmentBytes);
        if (deflate) {
            config = config.withDeflate(PerMessageDeflateConfig.honourOffers(new CodecPool(6, 4)));
        }
        byte[] large = new byte[1 << 20];
        new SplittableRandom(3).nextBytes(large);
        List<Object[]> messages = List.of(
                new Object[] {true, "hello".getBytes(StandardCharsets.UTF_8)},
                new Object[] {true, new byte[0]},
                new Object[] {true, "Grüße, κόσμε, 日本 ".repeat(1000).getBytes(StandardCharsets.UTF_8)},
                new Object[] {false, new byte[] {0, 1, (byte) 0xFE, (byte) 0xFF}},
                new Object[] {false, large});
        LinkedBlockingQueue<Received> received = new LinkedBlockingQueue<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        try (WebSocketClient client = new WebSocketClient(1, config)) {
            WebSocketConnection connection = client.connect(uri, new WebSocketListener() {
                        @Override
                        public void onMessage(WebSocketConnection c, boolean text, byte[] buf, int offset, int length) {
                            received.add(new Received(text, Arrays.copyOfRange(buf, offset, offset + length)));
                        }

                        @Override
                        public void onClose(WebSocketConnection c, int code, String reason) {
                            closed.complete(code);
                        }
                    })
                    .get(10, TimeUnit.SECONDS);
            for (Object[] m : messages) {
                boolean text = (Boolean) m[0];
                byte[] payload = (byte[]) m[1];
                connection.eventLoop().execute(() -> connection.send(text, payload, 0, payload.length));
                Received echo = received.poll(10, TimeUnit.SECONDS);
                assertThat(echo).as("echo of a %d-byte message", payload.length).isNotNull();
                assertThat(echo.text()).isEqualTo(text);
                assertThat(echo.payload()).isEqualTo(payload);
            }
            DeflateParameters negotiated = connection.deflateParameters();
            connection.eventLoop().execute(() -> connection.close(CloseCodes.NORMAL, "done"));
            assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(CloseCodes.NORMAL);
            return negotiated;
        }
    }
}
