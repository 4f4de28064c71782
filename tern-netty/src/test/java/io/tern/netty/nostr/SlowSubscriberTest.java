package io.tern.netty.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.websocket.WebSocketClient;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.websocket.engine.Frames;
import io.tern.websocket.engine.WebSocketConfig;
import io.tern.websocket.frame.Opcode;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subscriber that stops reading while events keep coming, over a real socket: the relay cuts it
 * off at {@code max-outbound-bytes} (1008, counted) instead of buffering without bound, and a
 * subscriber that reads gets every event.
 */
@Timeout(120)
class SlowSubscriberTest {
    private static final int EVENTS = 400;
    private static final int CONTENT_CHARS = 60_000;

    @TempDir
    Path dir;

    @Test
    void aSubscriberThatStopsReadingIsDisconnectedAtTheCapAndTheOthersGetEveryEvent() throws Exception {
        NostrConfig config = NostrConfig.builder()
                .maxOutboundBytes(256 * 1024)
                .eventRatePerIp(0, 1)
                .eventRatePerPubkey(0, 1)
                .build();
        Keys keys = Keys.fromSeed(7);
        try (NostrServer server = NostrServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        1,
                        config,
                        NostrRelayTest.sqlite(dir.resolve("relay.db"), config),
                        Keys.secp(),
                        () -> System.currentTimeMillis() / 1000,
                        "test");
                WebSocketClient client = new WebSocketClient(1, WebSocketConfig.defaults());
                Socket stalled = new Socket()) {
            URI uri = URI.create("ws://127.0.0.1:" + server.port() + "/");
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()));
            OutputStream out = stalled.getOutputStream();
            out.write(Frames.UPGRADE_REQUEST.getBytes(StandardCharsets.ISO_8859_1));
            out.write(Frames.clientFrame(
                    true, 0, Opcode.TEXT, "[\"REQ\",\"all\",{\"kinds\":[20001]}]".getBytes(StandardCharsets.UTF_8)));
            out.flush();

            NostrClient reader = new NostrClient(client, uri);
            NostrClient publisher = new NostrClient(client, uri);
            reader.send("[\"REQ\",\"all\",{\"kinds\":[20001]}]");
            assertThat(reader.next()).isEqualTo("[\"EOSE\",\"all\"]");
            String content = "x".repeat(CONTENT_CHARS);
            long now = System.currentTimeMillis() / 1000;
            for (int i = 0; i < EVENTS; i++) {
                Event event = keys.sign(now, 20001, List.of(List.of("n", Integer.toString(i))), content);
                publisher.send(Keys.eventMessage(event));
                assertThat(publisher.next()).startsWith("[\"OK\",\"" + event.id() + "\",true");
                assertThat(reader.next()).startsWith("[\"EVENT\",\"all\",").contains(event.id());
            }
            assertThat(server.relay().counters().slowReaderDisconnects()).isEqualTo(1);
            reader.close();
            publisher.close();
            // The relay hears each close before it answers it, so once both are answered it has forgotten them.
            assertThat(reader.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
            assertThat(publisher.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
            assertThat(server.relay().openConnections()).isZero();
        }
    }
}
