package io.tern.server.origin.config;

import static io.tern.server.origin.config.ValueTypes.address;
import static io.tern.server.origin.config.ValueTypes.choice;
import static io.tern.server.origin.config.ValueTypes.duration;
import static io.tern.server.origin.config.ValueTypes.flag;
import static io.tern.server.origin.config.ValueTypes.httpUrl;
import static io.tern.server.origin.config.ValueTypes.integer;
import static io.tern.server.origin.config.ValueTypes.path;
import static io.tern.server.origin.config.ValueTypes.port;
import static io.tern.server.origin.config.ValueTypes.size;
import static io.tern.server.origin.config.ValueTypes.text;

import io.tern.netty.http.HttpLimits;
import io.tern.server.origin.config.OriginOption.Scope;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The origin's option table, one row per option: {@code tern origin}'s command line, its
 * configuration file, {@code --help}, {@code --print-config} and the README are made from it.
 * These are the origin's own options, apart from the relay's coturn table.
 */
public final class OriginOptions {
    private static final List<OriginOption<?>> ROWS = new ArrayList<>();

    // ---- listeners

    public static final OriginOption<InetAddress> LISTEN =
            server("listen", address(), anyAddress(), null, "The address every listener binds: RTMP, HTTP and HTTPS.");
    public static final OriginOption<Integer> RTMP_PORT =
            server("rtmp-port", port(), 1935, null, "RTMP ingest port: publish to rtmp://HOST:PORT/live/NAME.");
    public static final OriginOption<Integer> HTTP_PORT = server(
            "http-port",
            port(),
            8080,
            null,
            "HTTP port (HTTP/1.1 with keep-alive, and h2c): play http://HOST:PORT/live/NAME/index.m3u8.");
    public static final OriginOption<Integer> HTTPS_PORT = server(
            "https-port",
            port(),
            8443,
            null,
            "HTTPS port (h2 and HTTP/1.1 by ALPN); only with --tls-cert and --tls-key.");
    public static final OriginOption<Path> TLS_CERT =
            server("tls-cert", path(), null, "none (no HTTPS listener)", "Certificate chain file (PEM) for HTTPS.");
    public static final OriginOption<Path> TLS_KEY =
            server("tls-key", path(), null, null, "Private key file (PEM) of --tls-cert.");
    public static final OriginOption<Integer> THREADS = server(
            "threads",
            integer(0, 256),
            0,
            "0 (one per CPU core)",
            "Event-loop threads for ingest and HTTP; each stream is packaged on one of them.");

    // ---- packaging (server-wide defaults, and per stream)

    public static final OriginOption<Integer> PART_TARGET_MS = stream(
            "part-target-ms",
            integer(50, 5000),
            200,
            null,
            "LL-HLS part duration target (EXT-X-PART-INF PART-TARGET).");
    public static final OriginOption<Integer> SEGMENT_TARGET_MS = stream(
            "segment-target-ms",
            integer(500, 60_000),
            2000,
            null,
            "Segment duration target; segments are cut at keyframes, so set the encoder's GOP to divide it.");
    public static final OriginOption<Integer> PLAYLIST_WINDOW_MS = stream(
            "playlist-window-ms",
            integer(1000, 3_600_000),
            24_000,
            null,
            "Media a playlist lists (at least three target durations).");
    public static final OriginOption<DeliveryMode> PART_DELIVERY = stream(
            "part-delivery",
            choice(DeliveryMode.class),
            DeliveryMode.STREAM,
            null,
            "How the preload-hinted part is sent: 'stream' sends each chunk as it is written (lowest latency),"
                    + " 'whole' only the complete part, as draft-pantos-hls-rfc8216bis-22 §6.2.6 recommends.");

    // ---- publishing

    public static final OriginOption<Boolean> NO_PUBLISH_AUTH = stream(
            "no-publish-auth", flag(), false, "off (publishing needs a token)", "Let anyone publish, without a token.");
    public static final OriginOption<String> PUBLISH_SECRET = secretRow(
            "publish-secret",
            "The secret publish tokens are signed with (see ./tern origin-token); without it and"
                    + " --publish-secret-file one is generated and printed at start.");
    public static final OriginOption<Path> PUBLISH_SECRET_FILE =
            stream("publish-secret-file", path(), null, null, "A file whose first line is the publish secret.");
    public static final OriginOption<URI> ON_PUBLISH = server(
            "on-publish",
            httpUrl(),
            null,
            null,
            "POST every publish (JSON) to this URL first; only a 2xx answer allows it.");
    public static final OriginOption<Integer> ON_PUBLISH_TIMEOUT_MS = server(
            "on-publish-timeout-ms",
            integer(1, 60_000),
            3000,
            null,
            "How long the --on-publish hook may take before the publish is refused.");
    public static final OriginOption<Integer> MAX_STREAMS =
            server("max-streams", integer(1, 100_000), 100, null, "Streams live at once; more publishes are refused.");
    public static final OriginOption<Integer> MAX_RTMP_CONNECTIONS =
            server("max-rtmp-connections", integer(1, 100_000), 1000, null, "RTMP connections open at once.");

    // ---- SRT ingest

    public static final OriginOption<Integer> SRT_PORT = server(
            "srt-port",
            port(),
            8890,
            null,
            "SRT ingest port (UDP): publish to srt://HOST:PORT?streamid=publish:live/NAME.");
    public static final OriginOption<Integer> SRT_LATENCY_MS = server(
            "srt-latency-ms",
            integer(20, 10_000),
            120,
            null,
            "SRT receive latency (TSBPD delay); a publisher asking for more gets more.");
    public static final OriginOption<String> SRT_PASSPHRASE = add(new OriginOption<>(
            "srt-passphrase",
            SrtValueTypes.passphrase(),
            null,
            "none (SRT publishers do not encrypt)",
            Scope.STREAM,
            true,
            "The passphrase SRT publishers must encrypt with (10 to 79 characters; AES key length as the"
                    + " publisher chooses)."));
    public static final OriginOption<SrtUser> SRT_USER = add(new OriginOption<>(
            "srt-user",
            SrtValueTypes.user(),
            null,
            null,
            Scope.SERVER,
            true,
            "NAME:PASSPHRASE: a publisher naming user NAME in its stream id (u=NAME) encrypts with this"
                    + " passphrase, on any stream; repeat for several users."));
    public static final OriginOption<Integer> MAX_SRT_SESSIONS =
            server("max-srt-sessions", integer(1, 100_000), 1000, null, "SRT sessions open at once.");

    // ---- viewers

    public static final OriginOption<Integer> MAX_HTTP_CONNECTIONS = server(
            "max-http-connections",
            integer(1, 10_000_000),
            HttpLimits.DEFAULTS.maxConnections(),
            null,
            "HTTP connections open at once (viewers, or cache nodes in front); more are closed at once.");
    public static final OriginOption<Integer> MAX_HTTP_CONNECTIONS_PER_IP = server(
            "max-http-connections-per-ip",
            integer(1, 10_000_000),
            HttpLimits.DEFAULTS.maxConnectionsPerIp(),
            null,
            "HTTP connections open at once from one client IP address.");
    public static final OriginOption<Integer> MAX_HELD_REQUESTS = server(
            "max-held-requests",
            integer(1, 10_000_000),
            HttpLimits.DEFAULTS.maxHeldRequests(),
            null,
            "Requests held at once (blocking playlist reloads, preload-hinted parts); more get 503.");
    public static final OriginOption<Integer> MAX_HELD_REQUESTS_PER_IP = server(
            "max-held-requests-per-ip",
            integer(1, 10_000_000),
            HttpLimits.DEFAULTS.maxHeldRequestsPerIp(),
            null,
            "Requests held at once for one client IP address; more get 429.");

    // ---- recording

    public static final OriginOption<Path> RECORD_DIR = server(
            "record-dir",
            path(),
            null,
            "none (recording off)",
            "Record streams as fragmented MP4 under this directory: NAME/YYYY-MM-DD/NAME-START.mp4.");
    public static final OriginOption<Boolean> RECORD = stream(
            "record",
            flag(),
            true,
            null,
            "Record streams when --record-dir is set ('record = off' in a stream's section).");
    public static final OriginOption<Long> RECORD_ROTATE = server(
            "record-rotate", duration(1000), 600_000L, null, "Start a new recording file after this much media.");
    public static final OriginOption<Long> RECORD_MAX_AGE = server(
            "record-max-age", duration(60_000), 0L, "0 (no limit)", "Delete recordings older than this, oldest first.");
    public static final OriginOption<Long> RECORD_MAX_BYTES = server(
            "record-max-bytes",
            size(),
            0L,
            "0 (no limit)",
            "Delete the oldest recordings while all of them together are larger than this.");
    public static final OriginOption<Long> RECORD_QUEUE_BYTES = server(
            "record-queue-bytes",
            size(),
            64L << 20,
            null,
            "Recording bytes waiting for the disk at most; past it a stream's recording drops (counted) and"
                    + " resumes in a new file at the next keyframe, and the live stream never waits.");

    // ---- Nostr relay

    public static final OriginOption<Path> NOSTR_DB = server(
            "nostr-db",
            path(),
            null,
            "none (no Nostr relay)",
            "Serve a Nostr relay on /nostr of the HTTP and HTTPS ports (WebSocket over HTTP/1.1, NIP-11 for"
                    + " 'Accept: application/nostr+json'), storing its events in this SQLite file (created if"
                    + " missing); the relay's limits are ./tern nostr's defaults.");

    // ---- operations

    public static final OriginOption<Boolean> PROMETHEUS =
            server("prometheus", flag(), false, null, "Serve Prometheus metrics on /metrics of --prometheus-port.");
    public static final OriginOption<Integer> PROMETHEUS_PORT =
            server("prometheus-port", port(), 9642, null, "Prometheus metrics port (all interfaces).");
    public static final OriginOption<LogLevel> LOG_LEVEL =
            server("log-level", choice(LogLevel.class), LogLevel.INFO, null, "What the origin logs.");

    public static final OriginOption<String> API_TOKEN = add(new OriginOption<>(
            "api-token",
            text("<token>"),
            null,
            "none (the JSON API answers loopback clients only)",
            Scope.SERVER,
            true,
            "Bearer token for the JSON API (/api/v1) from any address: 'Authorization: Bearer TOKEN';"
                    + " at least 16 characters of A-Z a-z 0-9 - . _ ~ + /."));
    public static final OriginOption<Path> API_TOKEN_FILE =
            server("api-token-file", path(), null, null, "A file whose first line is the --api-token.");

    private OriginOptions() {}

    /** Every row, in help order. */
    public static List<OriginOption<?>> all() {
        return Collections.unmodifiableList(ROWS);
    }

    /** The row named {@code name}, or null. */
    public static OriginOption<?> byName(String name) {
        for (OriginOption<?> row : ROWS) {
            if (row.name().equals(name)) {
                return row;
            }
        }
        return null;
    }

    private static <V> OriginOption<V> server(String name, ValueType<V> type, V value, String text, String help) {
        return add(new OriginOption<>(name, type, value, text, Scope.SERVER, false, help));
    }

    private static <V> OriginOption<V> stream(String name, ValueType<V> type, V value, String text, String help) {
        return add(new OriginOption<>(name, type, value, text, Scope.STREAM, false, help));
    }

    private static OriginOption<String> secretRow(String name, String help) {
        return add(new OriginOption<>(name, text("<secret>"), null, null, Scope.STREAM, true, help));
    }

    private static <V> OriginOption<V> add(OriginOption<V> row) {
        ROWS.add(row);
        return row;
    }

    /** 0.0.0.0: every IPv4 address. */
    private static InetAddress anyAddress() {
        try {
            return InetAddress.getByAddress(new byte[4]);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
