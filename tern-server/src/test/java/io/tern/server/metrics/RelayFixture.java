package io.tern.server.metrics;

import io.tern.server.config.TurnServerConfig;
import io.tern.server.interop.InteropRelay;
import io.tern.server.relay.RelayServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Tern in-process, as {@code tern turn} would start it, on loopback, with {@code --prometheus}
 * on a free port: REST shared-secret auth, loopback peers allowed.
 */
public final class RelayFixture implements AutoCloseable {
    public static final String REALM = "tern.test";
    public static final String SECRET = "fixture-secret";

    public final TurnServerConfig config;
    public final RelayServer server;
    public final MetricsEndpoint metrics;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private RelayFixture(TurnServerConfig config, RelayServer server, MetricsEndpoint metrics) {
        this.config = config;
        this.server = server;
        this.metrics = metrics;
    }

    /** Starts the relay; {@code extra} are further {@code name, value} option pairs ("" for flags). */
    public static RelayFixture start(String... extra) throws Exception {
        int relayBase = 40000 + ThreadLocalRandom.current().nextInt(90) * 100;
        List<String> options = new ArrayList<>(List.of(
                "listening-ip",
                "127.0.0.1",
                "relay-ip",
                "127.0.0.1",
                "listening-port",
                Integer.toString(InteropRelay.freePort()),
                "min-port",
                Integer.toString(relayBase),
                "max-port",
                Integer.toString(relayBase + 99),
                "realm",
                REALM,
                "use-auth-secret",
                "",
                "static-auth-secret",
                SECRET,
                "allow-loopback-peers",
                "",
                "prometheus",
                "",
                "prometheus-port",
                Integer.toString(freeTcpPort())));
        options.addAll(Arrays.asList(extra));
        TurnServerConfig config = InteropRelay.config(options.toArray(String[]::new));
        RelayServer server = RelayServer.start(config);
        try {
            // Port 0, not the configured one: a port probed free earlier can be taken by a parallel
            // test by now; the fixture reads the bound port back from the endpoint.
            return new RelayFixture(config, server, MetricsEndpoint.start(server, 0));
        } catch (IOException e) {
            server.close();
            throw e;
        }
    }

    public InetSocketAddress udpAddress() {
        return server.udpAddresses().get(0);
    }

    /** {@code <expiry>:<user>}, valid for an hour. */
    public static String restUsername(String user) {
        return (System.currentTimeMillis() / 1000 + 3600) + ":" + user;
    }

    /** TURN REST password: base64(HMAC-SHA1(secret, username)), computed here independently of Tern. */
    public static String restPassword(String username) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(username.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + metrics.address().getPort() + path);
        return http.send(
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Scrapes {@code /metrics} and parses the text format into {@code name{labels sorted}} → value. */
    public Map<String, Double> scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = get("/metrics");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("/metrics answered " + response.statusCode());
        }
        return parse(response.body());
    }

    public static Map<String, Double> parse(String text) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(series(line.substring(0, space)), Double.parseDouble(line.substring(space + 1)));
        }
        return samples;
    }

    /** {@code name{b="2",a="1"}} → {@code name{a="1",b="2"}}; label values here never hold commas. */
    public static String series(String series) {
        int brace = series.indexOf('{');
        if (brace < 0) {
            return series;
        }
        String[] labels = series.substring(brace + 1, series.length() - 1).split(",");
        Arrays.sort(labels);
        return series.substring(0, brace) + "{" + String.join(",", labels) + "}";
    }

    @Override
    public void close() {
        metrics.close();
        server.close();
    }

    public static int freeTcpPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
