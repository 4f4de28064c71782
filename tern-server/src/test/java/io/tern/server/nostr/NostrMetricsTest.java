package io.tern.server.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --prometheus}: the relay's counters on /metrics after a client (the JDK's WebSocket) used it. */
@Timeout(60)
class NostrMetricsTest {
    @TempDir
    Path dir;

    @Test
    void aScrapeShowsConnectionsSubscriptionsEventsRejectionsAndQueryTime() throws Exception {
        try (TestRelay relay = TestRelay.start(dir, "--prometheus", "--prometheus-port", "0");
                HttpClient http = HttpClient.newHttpClient()) {
            LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
            WebSocket socket = http.newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(relay.url()), new WebSocket.Listener() {
                        private final StringBuilder text = new StringBuilder();

                        @Override
                        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                            text.append(data);
                            if (last) {
                                received.add(text.toString());
                                text.setLength(0);
                            }
                            ws.request(1);
                            return null;
                        }
                    })
                    .get(10, TimeUnit.SECONDS);
            assertThat(received.poll(10, TimeUnit.SECONDS)).startsWith("[\"AUTH\"");
            Event note = Keys.fromSeed(11).sign(System.currentTimeMillis() / 1000, 1, List.of(), "counted");
            socket.sendText(Keys.eventMessage(note), true).get(10, TimeUnit.SECONDS);
            assertThat(received.poll(10, TimeUnit.SECONDS)).contains("true");
            socket.sendText("[\"EVENT\",{\"id\":\"" + note.id() + "\"}]", true).get(10, TimeUnit.SECONDS);
            assertThat(received.poll(10, TimeUnit.SECONDS)).contains("invalid:");
            socket.sendText("[\"REQ\",\"s\",{\"kinds\":[1]}]", true).get(10, TimeUnit.SECONDS);
            assertThat(received.poll(10, TimeUnit.SECONDS)).startsWith("[\"EVENT\",\"s\"");
            assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo("[\"EOSE\",\"s\"]");

            String metrics = http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                            + relay.metricsAddress().getPort() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(metrics)
                    .contains("tern_nostr_connections_open 1.0")
                    .contains("tern_nostr_connection_events_total{event=\"opened\"} 1.0")
                    .contains("tern_nostr_subscriptions_open 1.0")
                    .contains("tern_nostr_events_received_total 1.0")
                    .contains("tern_nostr_events_stored_total 1.0")
                    .contains("tern_nostr_events_rejected_total{reason=\"invalid\"} 1.0")
                    .contains("tern_nostr_deliveries_total{source=\"stored\"} 1.0")
                    .contains("tern_nostr_query_seconds_count 1")
                    .contains("tern_nostr_query_seconds_bucket{le=\"+Inf\"} 1")
                    .contains("tern_nostr_store_events_total{event=\"committed\"} 1.0")
                    .contains("jvm_memory_used_bytes");
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(10, TimeUnit.SECONDS);
        }
    }
}
