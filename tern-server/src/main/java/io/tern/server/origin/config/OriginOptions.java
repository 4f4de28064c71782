package io.tern.server.origin.config;

import static io.tern.server.option.OptionTypes.address;
import static io.tern.server.option.OptionTypes.choice;
import static io.tern.server.option.OptionTypes.duration;
import static io.tern.server.option.OptionTypes.flag;
import static io.tern.server.option.OptionTypes.httpUrl;
import static io.tern.server.option.OptionTypes.parsed;
import static io.tern.server.option.OptionTypes.path;
import static io.tern.server.option.OptionTypes.port;
import static io.tern.server.option.OptionTypes.size;
import static io.tern.server.option.OptionTypes.text;
import static io.tern.server.option.OptionTypes.wholeNumber;

import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import io.tern.netty.http.HttpLimits;
import io.tern.server.option.Option;
import io.tern.server.option.Option.Scope;
import io.tern.server.option.OptionType;
import io.tern.srt.SrtSettings;
import io.tern.srt.crypto.PassphraseKdf;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The origin's option table, one row per option: {@code tern origin}'s command line, its
 * configuration file, {@code --help}, {@code --print-config} and the README are made from it.
 * These are the origin's own options, apart from the relay's coturn table.
 */
public final class OriginOptions {
    private static final List<Option<?>> ROWS = new ArrayList<>();
    private static final Pattern SRT_USER_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    // ---- listeners

    public static final Option<InetAddress> LISTEN =
            server("listen", address(), anyAddress(), null, "The address every listener binds: RTMP, HTTP and HTTPS.");
    public static final Option<Integer> RTMP_PORT =
            server("rtmp-port", port(), 1935, null, "RTMP ingest port: publish to rtmp://HOST:PORT/live/NAME.");
    public static final Option<Integer> HTTP_PORT = server(
            "http-port",
            port(),
            8080,
            null,
            "HTTP port (HTTP/1.1 with keep-alive, and h2c): play http://HOST:PORT/live/NAME/index.m3u8.");
    public static final Option<Integer> HTTPS_PORT = server(
            "https-port",
            port(),
            8443,
            null,
            "HTTPS port (h2 and HTTP/1.1 by ALPN); only with --tls-cert and --tls-key.");
    public static final Option<Path> TLS_CERT =
            server("tls-cert", path(), null, "none (no HTTPS listener)", "Certificate chain file (PEM) for HTTPS.");
    public static final Option<Path> TLS_KEY =
            server("tls-key", path(), null, null, "Private key file (PEM) of --tls-cert.");
    public static final Option<Integer> THREADS = server(
            "threads",
            wholeNumber(0, 256),
            0,
            "0 (one per CPU core)",
            "Event-loop threads for ingest and HTTP; each stream is packaged on one of them.");

    // ---- packaging (server-wide defaults, and per stream)

    public static final Option<Integer> PART_TARGET_MS = stream(
            "part-target-ms",
            wholeNumber(PackagerConfig.MIN_PART_TARGET_MS, PackagerConfig.MAX_PART_TARGET_MS),
            PackagerConfig.DEFAULT_PART_TARGET_MS,
            null,
            "LL-HLS part duration target (EXT-X-PART-INF PART-TARGET).");
    public static final Option<Integer> SEGMENT_TARGET_MS = stream(
            "segment-target-ms",
            wholeNumber(PackagerConfig.MIN_SEGMENT_TARGET_MS, PackagerConfig.MAX_SEGMENT_TARGET_MS),
            PackagerConfig.DEFAULT_SEGMENT_TARGET_MS,
            null,
            "Segment duration target; segments are cut at keyframes, so set the encoder's GOP to divide it.");
    public static final Option<Integer> PLAYLIST_WINDOW_MS = stream(
            "playlist-window-ms",
            wholeNumber(PackagerConfig.MIN_PLAYLIST_WINDOW_MS, PackagerConfig.MAX_PLAYLIST_WINDOW_MS),
            PackagerConfig.DEFAULT_PLAYLIST_WINDOW_MS,
            null,
            "Media a playlist lists (at least three target durations).");
    public static final Option<DeliveryMode> PART_DELIVERY = stream(
            "part-delivery",
            choice(DeliveryMode.class),
            DeliveryMode.STREAM,
            null,
            "How the preload-hinted part is sent: 'stream' sends each chunk as it is written (lowest latency),"
                    + " 'whole' only the complete part, as draft-pantos-hls-rfc8216bis-22 §6.2.6 recommends.");
    public static final Option<RenditionMode> RENDITIONS = stream(
            "renditions",
            choice(RenditionMode.class),
            PackagerConfig.DEFAULT_RENDITIONS,
            null,
            "How a stream with video and audio is served: 'muxed' into one rendition (one playlist, and parts"
                    + " and segments carrying both tracks: half the requests per viewer), or 'separate' renditions"
                    + " (an audio EXT-X-MEDIA group beside the video, for players that need it).");

    // ---- publishing

    public static final Option<Boolean> NO_PUBLISH_AUTH = stream(
            "no-publish-auth", flag(), false, "off (publishing needs a token)", "Let anyone publish, without a token.");
    public static final Option<String> PUBLISH_SECRET = secretRow(
            "publish-secret",
            "The secret publish tokens are signed with (see ./tern origin-token); without it and"
                    + " --publish-secret-file one is generated and printed at start.");
    public static final Option<Path> PUBLISH_SECRET_FILE =
            stream("publish-secret-file", path(), null, null, "A file whose first line is the publish secret.");
    public static final Option<URI> ON_PUBLISH = server(
            "on-publish",
            httpUrl(),
            null,
            null,
            "POST every publish (JSON) to this URL first; only a 2xx answer allows it.");
    public static final Option<Integer> ON_PUBLISH_TIMEOUT_MS = server(
            "on-publish-timeout-ms",
            wholeNumber(1, 60_000),
            3000,
            null,
            "How long the --on-publish hook may take before the publish is refused.");
    public static final Option<Integer> MAX_STREAMS = server(
            "max-streams", wholeNumber(1, 100_000), 100, null, "Streams live at once; more publishes are refused.");
    public static final Option<Integer> MAX_RTMP_CONNECTIONS =
            server("max-rtmp-connections", wholeNumber(1, 100_000), 1000, null, "RTMP connections open at once.");

    // ---- SRT ingest

    public static final Option<Integer> SRT_PORT = server(
            "srt-port",
            port(),
            8890,
            null,
            "SRT ingest port (UDP): publish to srt://HOST:PORT?streamid=publish:live/NAME.");
    public static final Option<Integer> SRT_LATENCY_MS = server(
            "srt-latency-ms",
            wholeNumber(SrtSettings.MIN_LATENCY_MS, SrtSettings.MAX_LATENCY_MS),
            SrtSettings.DEFAULT_LATENCY_MS,
            null,
            "SRT receive latency (TSBPD delay); a publisher asking for more gets more.");
    public static final Option<String> SRT_PASSPHRASE = add(new Option<>(
            "srt-passphrase",
            srtPassphrase(),
            null,
            "none (SRT publishers do not encrypt)",
            Scope.STREAM,
            true,
            "The passphrase SRT publishers must encrypt with (10 to 79 characters; AES key length as the"
                    + " publisher chooses)."));
    public static final Option<SrtUser> SRT_USER = add(new Option<>(
            "srt-user",
            srtUser(),
            null,
            null,
            Scope.SERVER,
            true,
            "NAME:PASSPHRASE: a publisher naming user NAME in its stream id (u=NAME) encrypts with this"
                    + " passphrase, on any stream; repeat for several users."));
    public static final Option<Integer> MAX_SRT_SESSIONS = server(
            "max-srt-sessions",
            wholeNumber(1, 100_000),
            SrtSettings.DEFAULT_MAX_SESSIONS,
            null,
            "SRT sessions open at once.");

    // ---- viewers

    public static final Option<Integer> MAX_HTTP_CONNECTIONS = server(
            "max-http-connections",
            wholeNumber(1, 10_000_000),
            HttpLimits.DEFAULTS.maxConnections(),
            null,
            "HTTP connections open at once (viewers, or cache nodes in front); more are closed at once.");
    public static final Option<Integer> MAX_HTTP_CONNECTIONS_PER_IP = server(
            "max-http-connections-per-ip",
            wholeNumber(1, 10_000_000),
            HttpLimits.DEFAULTS.maxConnectionsPerIp(),
            null,
            "HTTP connections open at once from one client IP address.");
    public static final Option<Integer> MAX_HELD_REQUESTS = server(
            "max-held-requests",
            wholeNumber(1, PackagerConfig.MAX_HELD_REQUESTS),
            HttpLimits.DEFAULTS.maxHeldRequests(),
            null,
            "Requests held at once (blocking playlist reloads, preload-hinted parts); more get 503.");
    public static final Option<Integer> MAX_HELD_REQUESTS_PER_IP = server(
            "max-held-requests-per-ip",
            wholeNumber(1, 10_000_000),
            HttpLimits.DEFAULTS.maxHeldRequestsPerIp(),
            null,
            "Requests held at once for one client IP address; more get 429.");

    // ---- recording

    public static final Option<Path> RECORD_DIR = server(
            "record-dir",
            path(),
            null,
            "none (recording off)",
            "Record streams as fragmented MP4 under this directory: NAME/YYYY-MM-DD/NAME-START.mp4.");
    public static final Option<Boolean> RECORD = stream(
            "record",
            flag(),
            true,
            null,
            "Record streams when --record-dir is set ('record = off' in a stream's section).");
    public static final Option<Long> RECORD_ROTATE = server(
            "record-rotate", duration(1000), 600_000L, null, "Start a new recording file after this much media.");
    public static final Option<Long> RECORD_MAX_AGE = server(
            "record-max-age", duration(60_000), 0L, "0 (no limit)", "Delete recordings older than this, oldest first.");
    public static final Option<Long> RECORD_MAX_BYTES = server(
            "record-max-bytes",
            size(),
            0L,
            "0 (no limit)",
            "Delete the oldest recordings while all of them together are larger than this.");
    public static final Option<Long> RECORD_QUEUE_BYTES = server(
            "record-queue-bytes",
            size(),
            64L << 20,
            null,
            "Recording bytes waiting for the disk at most; past it a stream's recording drops (counted) and"
                    + " resumes in a new file at the next keyframe, and the live stream never waits.");

    // ---- Nostr relay

    public static final Option<Path> NOSTR_DB = server(
            "nostr-db",
            path(),
            null,
            "none (no Nostr relay)",
            "Serve a Nostr relay on /nostr of the HTTP and HTTPS ports (WebSocket over HTTP/1.1, NIP-11 for"
                    + " 'Accept: application/nostr+json'), storing its events in this SQLite file (created if"
                    + " missing); the relay's limits are ./tern nostr's defaults.");

    // ---- peer-assisted delivery (docs/origin.md, "Peer-assisted delivery")

    public static final Option<Boolean> SWARM = stream(
            "swarm",
            flag(),
            false,
            null,
            "Peer-assisted delivery: sign every init segment, part and segment, list the attestations in the"
                    + " media playlists, answer /api/v1/swarm/NAME, and let the watch page's viewers share parts"
                    + " over WebRTC ('swarm = on' in a stream's section); needs --nostr-db.");
    public static final Option<Path> SWARM_KEY_FILE = server(
            "swarm-key-file",
            path(),
            Path.of("tern-swarm.key"),
            null,
            "The origin's long-term Ed25519 key (PKCS#8 PEM) that endorses each stream's session key; created"
                    + " (mode 0600) at the first start with --swarm, its public key printed at every start.");
    public static final Option<Integer> SWARM_RATE_PER_MINUTE = server(
            "swarm-rate-per-minute",
            wholeNumber(1, 100_000),
            30,
            null,
            "GET /api/v1/swarm/NAME answers (each with fresh TURN credentials) per client IP address per"
                    + " minute; more get 429.");
    public static final Option<Path> TURN_CONFIG = server(
            "turn-config",
            path(),
            null,
            "none (no TURN relay in this process)",
            "Run Tern's TURN relay in this process, configured by this coturn-format file (./tern turn's"
                    + " options; it must take REST credentials: use-auth-secret, or no auth option); viewers get credentials for it from"
                    + " /api/v1/swarm/NAME, and /api/v1/turn summarises it.");
    public static final Option<String> TURN_URL = add(new Option<>(
            "turn-url",
            turnUrl(),
            null,
            "none",
            Scope.SERVER,
            false,
            "An external TURN relay (Tern or coturn) for viewers, e.g. turn:relay.example.com:3478?transport=udp;"
                    + " repeat for each transport it listens on; needs --turn-secret-file."));
    public static final Option<Path> TURN_SECRET_FILE = server(
            "turn-secret-file",
            path(),
            null,
            null,
            "A file whose first line is the REST secret the --turn-url relay shares (coturn's"
                    + " static-auth-secret).");

    // ---- operations

    public static final Option<Boolean> PROMETHEUS =
            server("prometheus", flag(), false, null, "Serve Prometheus metrics on /metrics of --prometheus-port.");
    public static final Option<Integer> PROMETHEUS_PORT =
            server("prometheus-port", port(), 9642, null, "Prometheus metrics port (all interfaces).");
    public static final Option<LogLevel> LOG_LEVEL =
            server("log-level", choice(LogLevel.class), LogLevel.INFO, null, "What the origin logs.");

    public static final Option<String> API_TOKEN = add(new Option<>(
            "api-token",
            text("<token>"),
            null,
            "none (the JSON API answers loopback clients only)",
            Scope.SERVER,
            true,
            "Bearer token for the JSON API (/api/v1) from any address: 'Authorization: Bearer TOKEN';"
                    + " at least 16 characters of A-Z a-z 0-9 - . _ ~ + /."));
    public static final Option<Path> API_TOKEN_FILE =
            server("api-token-file", path(), null, null, "A file whose first line is the --api-token.");

    private OriginOptions() {}

    /** Every row, in help order. */
    public static List<Option<?>> all() {
        return Collections.unmodifiableList(ROWS);
    }

    /** The row named {@code name}, or null. */
    public static Option<?> byName(String name) {
        for (Option<?> row : ROWS) {
            if (row.name().equals(name)) {
                return row;
            }
        }
        return null;
    }

    private static <V> Option<V> server(String name, OptionType<V> type, V value, String text, String help) {
        return add(new Option<>(name, type, value, text, Scope.SERVER, false, help));
    }

    private static <V> Option<V> stream(String name, OptionType<V> type, V value, String text, String help) {
        return add(new Option<>(name, type, value, text, Scope.STREAM, false, help));
    }

    private static Option<String> secretRow(String name, String help) {
        return add(new Option<>(name, text("<secret>"), null, null, Scope.STREAM, true, help));
    }

    private static <V> Option<V> add(Option<V> row) {
        ROWS.add(row);
        return row;
    }

    /** {@code turn:} or {@code turns:} URI (RFC 7065): host, optional port and transport. */
    private static OptionType<String> turnUrl() {
        return parsed(
                "<turn:host:port?transport=udp>",
                text -> {
                    if (!text.matches("turns?:[A-Za-z0-9.\\-\\[\\]:]+(:[0-9]{1,5})?(\\?transport=(udp|tcp))?")) {
                        throw new IllegalArgumentException(
                                "must be turn:HOST[:PORT][?transport=udp|tcp] or turns:HOST[:PORT][?transport=tcp]");
                    }
                    return text;
                },
                text -> text);
    }

    /** An SRT passphrase: 10 to 79 characters, as libsrt's {@code SRTO_PASSPHRASE} takes it. */
    private static OptionType<String> srtPassphrase() {
        return parsed("<passphrase>", OriginOptions::passphrase, text -> text);
    }

    /** {@code NAME:PASSPHRASE}, NAME being 1 to 64 of A-Z a-z 0-9 _ . - */
    private static OptionType<SrtUser> srtUser() {
        return parsed(
                "<name:passphrase>",
                text -> {
                    int colon = text.indexOf(':');
                    if (colon < 0) {
                        throw new IllegalArgumentException("must be NAME:PASSPHRASE");
                    }
                    String name = text.substring(0, colon);
                    if (!SRT_USER_NAME.matcher(name).matches()) {
                        throw new IllegalArgumentException("the user name must be 1 to 64 of A-Z a-z 0-9 _ . -");
                    }
                    return new SrtUser(name, passphrase(text.substring(colon + 1)));
                },
                user -> user.name() + ":" + user.passphrase());
    }

    private static String passphrase(String text) {
        String problem = PassphraseKdf.validate(text);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return text;
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
