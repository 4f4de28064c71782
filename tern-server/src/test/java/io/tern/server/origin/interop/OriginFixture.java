package io.tern.server.origin.interop;

import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.origin.OriginServer;
import io.tern.server.origin.auth.PublishTokens;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginConfigFile;
import io.tern.server.origin.config.OriginOptions;
import io.tern.server.origin.harness.Harness;
import io.tern.testkit.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An in-process {@code tern origin} on 127.0.0.1 and free ports, configured like the command line
 * ({@code "record-dir=/tmp/x"}), with a JDK HTTP client for its HTTP port.
 */
final class OriginFixture implements AutoCloseable {
    private static final Pattern INSTANCE = Pattern.compile("(?m)^([A-Za-z0-9_-]+)/video\\.m3u8$");

    final OriginServer server;
    final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    OriginFixture(String... options) throws Exception {
        this(List.of(), options);
    }

    /** With {@code fileLines} as its configuration file (stream sections), then the options. */
    OriginFixture(List<String> fileLines, String... options) throws Exception {
        List<Occurrence> cli = new ArrayList<>();
        add(cli, OriginOptions.LISTEN, "127.0.0.1");
        add(cli, OriginOptions.RTMP_PORT, Integer.toString(Harness.freePort()));
        add(cli, OriginOptions.HTTP_PORT, Integer.toString(Harness.freePort()));
        add(cli, OriginOptions.SRT_PORT, Integer.toString(Harness.freeUdpPort()));
        add(cli, OriginOptions.THREADS, "2");
        for (String option : options) {
            int eq = option.indexOf('=');
            String name = eq < 0 ? option : option.substring(0, eq);
            Option<?> row = OriginOptions.byName(name);
            if (row == null) {
                throw new IllegalArgumentException("no option " + name);
            }
            add(cli, row, eq < 0 ? "" : option.substring(eq + 1));
        }
        server = OriginServer.start(OriginConfig.assemble(OriginConfigFile.parse("origin.conf", fileLines), cli));
    }

    private static void add(List<Occurrence> cli, Option<?> row, String value) {
        cli.add(new Occurrence(row, value, ConfigSource.commandLine(), null));
    }

    /** Where to publish {@code name}: with a token valid for an hour when the origin wants one. */
    String rtmpUrl(String name) {
        String base = "rtmp://127.0.0.1:" + server.rtmpAddress().getPort() + "/live/" + name;
        PublishTokens tokens = server.registry().policy().serverTokens();
        if (!server.registry().policy().tokensByDefault()) {
            return base;
        }
        return base + "?token=" + tokens.mint("live", name, Instant.now().getEpochSecond() + 3600);
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.httpPort() + path;
    }

    String playUrl(String name) {
        return url("/live/" + name + "/index.m3u8");
    }

    HttpResponse<String> get(String pathOrUrl) throws IOException, InterruptedException {
        String url = pathOrUrl.startsWith("http") ? pathOrUrl : url(pathOrUrl);
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<byte[]> getBytes(String pathOrUrl) throws IOException, InterruptedException {
        String url = pathOrUrl.startsWith("http") ? pathOrUrl : url(pathOrUrl);
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Waits (bounded) until {@code name}'s multivariant playlist is served; returns its instance id. */
    String awaitStream(String name, long timeoutMs) throws Exception {
        String[] last = {""};
        return Await.awaitValue(
                "stream " + name + " served",
                Duration.ofMillis(timeoutMs),
                Duration.ofMillis(200),
                () -> {
                    HttpResponse<String> r = get(playUrl(name));
                    last[0] = r.statusCode() + " " + r.body();
                    Matcher m = INSTANCE.matcher(r.body());
                    return r.statusCode() == 200 && m.find() ? m.group(1) : null;
                },
                () -> last[0]);
    }

    @Override
    public void close() {
        server.close();
        http.close();
    }
}
