package io.tern.server.origin.config;

import static io.tern.server.origin.config.OriginOptions.HTTPS_PORT;
import static io.tern.server.origin.config.OriginOptions.HTTP_PORT;
import static io.tern.server.origin.config.OriginOptions.MAX_HELD_REQUESTS;
import static io.tern.server.origin.config.OriginOptions.NOSTR_DB;
import static io.tern.server.origin.config.OriginOptions.NO_PUBLISH_AUTH;
import static io.tern.server.origin.config.OriginOptions.PART_DELIVERY;
import static io.tern.server.origin.config.OriginOptions.PART_TARGET_MS;
import static io.tern.server.origin.config.OriginOptions.PLAYLIST_WINDOW_MS;
import static io.tern.server.origin.config.OriginOptions.PROMETHEUS;
import static io.tern.server.origin.config.OriginOptions.PROMETHEUS_PORT;
import static io.tern.server.origin.config.OriginOptions.PUBLISH_SECRET;
import static io.tern.server.origin.config.OriginOptions.PUBLISH_SECRET_FILE;
import static io.tern.server.origin.config.OriginOptions.RECORD;
import static io.tern.server.origin.config.OriginOptions.RENDITIONS;
import static io.tern.server.origin.config.OriginOptions.RTMP_PORT;
import static io.tern.server.origin.config.OriginOptions.SEGMENT_TARGET_MS;
import static io.tern.server.origin.config.OriginOptions.SWARM;
import static io.tern.server.origin.config.OriginOptions.TLS_CERT;
import static io.tern.server.origin.config.OriginOptions.TLS_KEY;
import static io.tern.server.origin.config.OriginOptions.TURN_CONFIG;
import static io.tern.server.origin.config.OriginOptions.TURN_SECRET_FILE;
import static io.tern.server.origin.config.OriginOptions.TURN_URL;

import io.tern.hls.packager.RenditionMode;
import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.origin.auth.PublishSecret;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The origin's effective configuration: the file's values, the command line's over them, and the
 * {@code [stream NAME]} sections. Built by {@link #assemble}, which parses and checks every value
 * and every combination, so an invalid configuration stops start-up naming the option, the value
 * and where it was written.
 */
public final class OriginConfig {
    private static final Pattern PACKAGER_ERROR = Pattern.compile("(\\w+)=([^:]*): (.*)");
    private static final Map<String, Option<?>> PACKAGER_FIELDS = Map.of(
            "partTargetMs", PART_TARGET_MS,
            "segmentTargetMs", SEGMENT_TARGET_MS,
            "playlistWindowMs", PLAYLIST_WINDOW_MS);

    /** A value and where it came from. */
    private record Setting(Object value, ConfigSource source) {}

    private final Map<Option<?>, Setting> server;
    private final Map<String, Map<Option<?>, Setting>> streams;
    /** Every server-wide value given, in order, for the options that may be repeated. */
    private final Map<Option<?>, List<Object>> repeated = new HashMap<>();

    private OriginConfig(Map<Option<?>, Setting> server, Map<String, Map<Option<?>, Setting>> streams) {
        this.server = server;
        this.streams = streams;
    }

    /** The defaults alone. */
    public static OriginConfig defaults() {
        return assemble(List.of(), List.of());
    }

    /**
     * The file's occurrences, then the command line's (which override the file's server-wide values).
     *
     * @throws ConfigException naming the option, the value and its source
     */
    public static OriginConfig assemble(List<Occurrence> file, List<Occurrence> commandLine) {
        Map<Option<?>, Setting> server = new LinkedHashMap<>();
        for (Option<?> row : OriginOptions.all()) {
            server.put(row, new Setting(row.defaultValue(), ConfigSource.defaultValue()));
        }
        Map<String, Map<Option<?>, Setting>> streams = new LinkedHashMap<>();
        Map<Option<?>, List<Object>> repeated = new HashMap<>();
        List<Occurrence> all = new ArrayList<>(file);
        all.addAll(commandLine);
        for (Occurrence o : all) {
            Setting parsed = new Setting(o.option().parse(o), o.source());
            if (o.section() == null) {
                server.put(o.option(), parsed);
                repeated.computeIfAbsent(o.option(), k -> new ArrayList<>()).add(parsed.value());
            } else {
                streams.computeIfAbsent(o.section(), k -> new LinkedHashMap<>()).put(o.option(), parsed);
            }
        }
        OriginConfig config = new OriginConfig(server, streams);
        config.repeated.putAll(repeated);
        config.check();
        return config;
    }

    // ---------------------------------------------------------------- reading

    /** The server-wide value of {@code option}: given, or its default (null for "none"). */
    @SuppressWarnings("unchecked")
    public <V> V get(Option<V> option) {
        return (V) server.get(option).value();
    }

    /**
     * Every server-wide value of {@code option} given, in order (file first, then the command line),
     * for an option that may be repeated ({@code srt-user}); empty when none was given.
     */
    @SuppressWarnings("unchecked")
    public <V> List<V> getAll(Option<V> option) {
        return (List<V>) List.copyOf(repeated.getOrDefault(option, List.of()));
    }

    /** The value of a per-stream option for stream {@code name}: its section's, else the server-wide one. */
    @SuppressWarnings("unchecked")
    public <V> V streamValue(String name, Option<V> option) {
        Map<Option<?>, Setting> own = streams.getOrDefault(name, Map.of());
        return (V) value(own, option);
    }

    /** Where the server-wide value of {@code option} came from. */
    public ConfigSource source(Option<?> option) {
        return server.get(option).source();
    }

    /** The streams that have a section. */
    public Set<String> configuredStreams() {
        return streams.keySet();
    }

    /** The server-wide stream settings, for a stream without a section. */
    public StreamConfig streamDefaults() {
        return resolve(null, Map.of());
    }

    /** The settings of stream {@code name}: its section over the server-wide values. */
    public StreamConfig stream(String name) {
        Map<Option<?>, Setting> own = streams.get(name);
        return own == null ? streamDefaults() : resolve(name, own);
    }

    /** Whether any stream may be signed for peer-assisted delivery: {@code --swarm}, or in any stream's section. */
    public boolean anySwarm() {
        if (get(SWARM)) {
            return true;
        }
        for (Map<Option<?>, Setting> own : streams.values()) {
            Setting s = own.get(SWARM);
            if (s != null && Boolean.TRUE.equals(s.value())) {
                return true;
            }
        }
        return false;
    }

    /** Whether HTTPS is configured. */
    public boolean tls() {
        return get(TLS_CERT) != null;
    }

    private StreamConfig resolve(String name, Map<Option<?>, Setting> own) {
        boolean ownSecret = own.containsKey(PUBLISH_SECRET) || own.containsKey(PUBLISH_SECRET_FILE);
        boolean noAuth = own.containsKey(NO_PUBLISH_AUTH)
                ? (Boolean) own.get(NO_PUBLISH_AUTH).value()
                : !ownSecret && get(NO_PUBLISH_AUTH); // a stream's own secret turns tokens on for it
        String secret = (String) value(own, PUBLISH_SECRET);
        java.nio.file.Path secretFile = (java.nio.file.Path) value(own, PUBLISH_SECRET_FILE);
        if (ownSecret) {
            secret = own.containsKey(PUBLISH_SECRET) ? secret : null;
            secretFile = own.containsKey(PUBLISH_SECRET_FILE) ? secretFile : null;
        }
        int segmentMs = (Integer) value(own, SEGMENT_TARGET_MS);
        int windowMs = (Integer) value(own, PLAYLIST_WINDOW_MS);
        boolean windowGiven = own.containsKey(PLAYLIST_WINDOW_MS)
                || !source(PLAYLIST_WINDOW_MS).equals(ConfigSource.defaultValue());
        if (!windowGiven) {
            windowMs = Math.max(windowMs, 3000 * ((segmentMs + 999) / 1000)); // at least three target durations
        }
        return new StreamConfig(
                name,
                (Boolean) value(own, RECORD),
                (Integer) value(own, PART_TARGET_MS),
                segmentMs,
                windowMs,
                (DeliveryMode) value(own, PART_DELIVERY),
                (RenditionMode) value(own, RENDITIONS),
                noAuth,
                secret,
                secretFile,
                ownSecret,
                (Boolean) value(own, SWARM));
    }

    private Object value(Map<Option<?>, Setting> own, Option<?> option) {
        Setting s = own.get(option);
        return s != null ? s.value() : server.get(option).value();
    }

    private ConfigSource sourceIn(Map<Option<?>, Setting> own, Option<?> option) {
        Setting s = own.get(option);
        return s != null ? s.source() : server.get(option).source();
    }

    // ---------------------------------------------------------------- checks

    private void check() {
        if ((get(TLS_CERT) == null) != (get(TLS_KEY) == null)) {
            Option<?> given = get(TLS_CERT) != null ? TLS_CERT : TLS_KEY;
            Option<?> missing = given == TLS_CERT ? TLS_KEY : TLS_CERT;
            throw new ConfigException(
                    "Option '" + given.name() + "' " + source(given).where() + " needs '" + missing.name() + "' too");
        }
        checkPorts();
        checkSwarm();
        checkStream(null, Map.of());
        for (Map.Entry<String, Map<Option<?>, Setting>> e : streams.entrySet()) {
            checkStream(e.getKey(), e.getValue());
        }
    }

    private void checkSwarm() {
        if (get(TURN_CONFIG) != null && !getAll(TURN_URL).isEmpty()) {
            throw new ConfigException(
                    "Options 'turn-config' " + source(TURN_CONFIG).where() + " and 'turn-url' "
                            + source(TURN_URL).where() + " exclude each other");
        }
        if (getAll(TURN_URL).isEmpty() != (get(TURN_SECRET_FILE) == null)) {
            Option<?> given = get(TURN_SECRET_FILE) == null ? TURN_URL : TURN_SECRET_FILE;
            Option<?> missing = given == TURN_URL ? TURN_SECRET_FILE : TURN_URL;
            throw new ConfigException(
                    "Option '" + given.name() + "' " + source(given).where() + " needs '" + missing.name() + "' too");
        }
        if (anySwarm() && get(NOSTR_DB) == null) {
            throw new ConfigException("Option 'swarm' needs 'nostr-db': viewers of a swarm meet on the origin's"
                    + " Nostr relay (/nostr)");
        }
    }

    private void checkPorts() {
        Map<Integer, Option<?>> used = new HashMap<>();
        List<Option<Integer>> ports = new ArrayList<>(List.of(RTMP_PORT, HTTP_PORT));
        if (tls()) {
            ports.add(HTTPS_PORT);
        }
        if (get(PROMETHEUS)) {
            ports.add(PROMETHEUS_PORT);
        }
        for (Option<Integer> port : ports) {
            Option<?> before = used.putIfAbsent(get(port), port);
            if (before != null) {
                throw ConfigException.invalidValue(
                        port.name(),
                        Integer.toString(get(port)),
                        "the same port as '" + before.name() + "'",
                        source(port).equals(ConfigSource.defaultValue()) ? source(before) : source(port));
            }
        }
    }

    private void checkStream(String name, Map<Option<?>, Setting> own) {
        Map<Option<?>, Setting> level = name == null ? server : own;
        Setting secret = level.get(PUBLISH_SECRET);
        Setting secretFile = level.get(PUBLISH_SECRET_FILE);
        if (secret != null && secret.value() != null && secretFile != null && secretFile.value() != null) {
            throw new ConfigException(
                    "Options 'publish-secret' " + secret.source().where() + " and 'publish-secret-file' "
                            + secretFile.source().where() + " exclude each other");
        }
        Setting noAuth = level.get(NO_PUBLISH_AUTH);
        Setting anySecret = secret != null && secret.value() != null ? secret : secretFile;
        if (noAuth != null && Boolean.TRUE.equals(noAuth.value()) && anySecret != null && anySecret.value() != null) {
            throw new ConfigException(
                    "Option 'no-publish-auth' " + noAuth.source().where() + " excludes '"
                            + (anySecret == secret ? "publish-secret" : "publish-secret-file") + "' "
                            + anySecret.source().where());
        }
        if (secretFile != null && secretFile.value() != null) {
            java.nio.file.Path path = (java.nio.file.Path) secretFile.value();
            try {
                PublishSecret.resolve(null, path, null);
            } catch (IllegalArgumentException e) {
                String reason = e.getMessage().replace("--publish-secret-file " + path + ": ", "");
                throw ConfigException.invalidValue("publish-secret-file", path.toString(), reason, secretFile.source());
            }
        }
        StreamConfig stream = resolve(name, own);
        try {
            stream.packagerConfig("check", get(MAX_HELD_REQUESTS));
        } catch (IllegalArgumentException e) {
            Matcher m = PACKAGER_ERROR.matcher(e.getMessage());
            Option<?> option = m.matches() ? PACKAGER_FIELDS.get(m.group(1)) : null;
            if (option == null) {
                throw new ConfigException(
                        "Invalid stream settings" + (name == null ? "" : " for " + name) + ": " + e.getMessage());
            }
            String reason = m.group(3);
            for (Map.Entry<String, Option<?>> field : PACKAGER_FIELDS.entrySet()) {
                reason = reason.replace(field.getKey(), field.getValue().name());
            }
            throw ConfigException.invalidValue(
                    option.name(),
                    m.group(2),
                    reason + (name == null ? "" : ", for stream " + name),
                    sourceIn(own, option));
        }
    }

    /** Whether the TLS files exist, for a clear message before the TLS library's. */
    public void checkFilesReadable() {
        for (Option<java.nio.file.Path> file : List.of(TLS_CERT, TLS_KEY)) {
            java.nio.file.Path path = get(file);
            if (path != null && !Files.isReadable(path)) {
                throw ConfigException.invalidValue(file.name(), path.toString(), "not a readable file", source(file));
            }
        }
    }

    // ---------------------------------------------------------------- printing

    /** The effective configuration in the file's syntax; secrets are never shown. */
    public String print() {
        StringBuilder out = new StringBuilder("# tern origin: the effective configuration (read back with -c FILE)\n");
        for (Option<?> row : OriginOptions.all()) {
            line(out, row, server.get(row));
        }
        for (Map.Entry<String, Map<Option<?>, Setting>> e : streams.entrySet()) {
            out.append("\n[stream ").append(e.getKey()).append("]\n");
            for (Map.Entry<Option<?>, Setting> s : e.getValue().entrySet()) {
                line(out, s.getKey(), s.getValue());
            }
        }
        return out.toString();
    }

    private static void line(StringBuilder out, Option<?> row, Setting setting) {
        out.append(row.printed(setting.value())).append('\n');
    }
}
