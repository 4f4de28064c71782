package io.tern.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpMetricsTest {
    @Test
    void aScrapeShowsResponsesByKindAndStatusBytesAndEvents() throws Exception {
        HttpRoutes routes = HttpRoutes.builder()
                .get("/p", "playlist", ex -> ex.reply(HttpResponseStatus.OK).send("12345"))
                .build();
        HttpServer server = HttpServer.builder(new HttpService(routes, HttpLimits.DEFAULTS))
                .listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .start();
        try (HttpClient client = HttpClient.newHttpClient()) {
            for (String path : new String[] {"/p", "/p", "/missing"}) {
                client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
            }
            PrometheusRegistry registry = new PrometheusRegistry();
            new HttpMetrics(server.counters()).register(registry);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            PrometheusTextFormatWriter.create().write(text, registry.scrape());
            String scrape = text.toString(StandardCharsets.UTF_8);
            assertThat(scrape)
                    .contains("tern_http_responses_total{kind=\"playlist\",status=\"200\"} 2.0")
                    .contains("tern_http_responses_total{kind=\"other\",status=\"404\"} 1.0")
                    .contains("tern_http_events_total{event=\"connection_accepted\"} 1.0")
                    .contains("tern_http_connections_open 1.0")
                    .contains("tern_http_held_requests 0.0")
                    .containsPattern("tern_http_body_bytes_total 2[0-9]\\.0");
        } finally {
            server.close();
        }
    }
}
