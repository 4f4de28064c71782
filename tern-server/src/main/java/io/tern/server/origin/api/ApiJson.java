package io.tern.server.origin.api;

import io.tern.server.origin.registry.StreamNames;
import io.tern.server.origin.registry.StreamSnapshot;
import io.tern.server.origin.swarm.SwarmService;
import io.tern.server.origin.swarm.TurnAccess;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The API's JSON, written with jackson-core's streaming generator: one method per document shape,
 * the same names as {@code openapi.json}. Answers are small (a few streams, a listing), so each is
 * written to a string and sent whole.
 */
final class ApiJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** Writes one document. */
    @FunctionalInterface
    interface Body {
        void write(JsonGenerator json);
    }

    private ApiJson() {}

    static String write(Body body) {
        StringWriter out = new StringWriter(512);
        try (JsonGenerator json = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
            body.write(json);
        }
        return out.append('\n').toString();
    }

    /** {@code {"error": {"status": 404, "message": "..."}}}. */
    static String error(int status, String message) {
        return write(json -> {
            json.writeStartObject();
            json.writeObjectPropertyStart("error");
            json.writeNumberProperty("status", status);
            json.writeStringProperty("message", message);
            json.writeEndObject();
            json.writeEndObject();
        });
    }

    static String streams(List<StreamSnapshot> streams) {
        return write(json -> {
            json.writeStartObject();
            json.writeArrayPropertyStart("streams");
            for (StreamSnapshot s : streams) {
                stream(json, s, false);
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    static String stream(StreamSnapshot s) {
        return write(json -> stream(json, s, true));
    }

    private static void stream(JsonGenerator json, StreamSnapshot s, boolean detail) {
        json.writeStartObject();
        json.writeStringProperty("name", s.name());
        json.writeStringProperty("instanceId", s.instanceId());
        json.writeBooleanProperty("live", s.live());
        json.writeStringProperty("protocol", s.protocol());
        json.writeStringProperty("publisher", s.publisher());
        json.writeStringProperty(
                "startedAt", Instant.ofEpochMilli(s.startedEpochMs()).toString());
        json.writeNumberProperty("uptimeMs", s.uptimeMs());
        json.writeStringProperty("watchPath", "/" + StreamNames.APP + "/" + s.name() + "/");
        json.writeStringProperty("playlistPath", "/" + StreamNames.APP + "/" + s.name() + "/index.m3u8");
        object(json, "video", s.video(), v -> {
            json.writeStringProperty("codecs", v.codecs());
            json.writeNumberProperty("width", v.width());
            json.writeNumberProperty("height", v.height());
            json.writeNumberProperty("frameRate", Math.round(v.frameRate() * 1000) / 1000.0);
        });
        object(json, "audio", s.audio(), a -> {
            json.writeStringProperty("codecs", a.codecs());
            json.writeNumberProperty("sampleRateHz", a.sampleRateHz());
            json.writeNumberProperty("channels", a.channels());
        });
        json.writeNumberProperty("ingestBitsPerSecond", s.ingestBitsPerSecond());
        json.writeNumberProperty("accessUnits", s.accessUnits());
        json.writeNumberProperty("parts", s.parts());
        json.writeNumberProperty("segments", s.segments());
        json.writeNumberProperty("viewers", s.viewers());
        object(json, "recording", s.recording(), r -> {
            json.writeStringProperty("file", r.file());
            json.writeNumberProperty("bytesWritten", r.bytesWritten());
            json.writeNumberProperty("droppedBytes", r.droppedBytes());
            json.writeNumberProperty("restarts", r.restarts());
        });
        if (detail) {
            json.writeNumberProperty("heldRequests", s.heldRequests());
            json.writeNumberProperty("discontinuities", s.discontinuities());
            json.writeNumberProperty("timestampJumps", s.timestampJumps());
            json.writeNumberProperty("droppedFrames", s.droppedFrames());
            json.writeArrayPropertyStart("lastErrors");
            for (String e : s.lastErrors()) {
                json.writeString(e);
            }
            json.writeEndArray();
        }
        json.writeEndObject();
    }

    /** Property {@code name}: null, or an object whose properties {@code fields} writes. */
    private static <T> void object(JsonGenerator json, String name, T value, Consumer<T> fields) {
        json.writeName(name);
        if (value == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        fields.accept(value);
        json.writeEndObject();
    }

    /** A recording on disk, with its time range. */
    record RecordingEntry(
            String path, String stream, long startEpochMs, long endEpochMs, long sizeBytes, boolean writing) {}

    static String recordings(boolean enabled, List<RecordingEntry> files) {
        return write(json -> {
            json.writeStartObject();
            json.writeBooleanProperty("enabled", enabled);
            json.writeArrayPropertyStart("recordings");
            for (RecordingEntry f : files) {
                json.writeStartObject();
                json.writeStringProperty("path", f.path());
                json.writeStringProperty("stream", f.stream());
                json.writeStringProperty(
                        "start", Instant.ofEpochMilli(f.startEpochMs()).toString());
                json.writeStringProperty(
                        "end", Instant.ofEpochMilli(f.endEpochMs()).toString());
                json.writeNumberProperty("durationMs", Math.max(0, f.endEpochMs() - f.startEpochMs()));
                json.writeNumberProperty("sizeBytes", f.sizeBytes());
                json.writeBooleanProperty("writing", f.writing());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    static String relay(RelaySummary summary) {
        return write(json -> {
            json.writeStartObject();
            json.writeObjectPropertyStart("allocations");
            for (Map.Entry<String, Long> e : summary.allocationsByTransport().entrySet()) {
                json.writeNumberProperty(e.getKey(), e.getValue());
            }
            json.writeEndObject();
            json.writeNumberProperty("relayedBitsPerSecond", summary.relayedBitsPerSecond());
            json.writeEndObject();
        });
    }

    /** The swarm's configuration for one stream (docs/swarm-protocol.md). */
    static String swarm(SwarmService.Answer a) {
        return write(json -> {
            json.writeStartObject();
            json.writeStringProperty("stream", a.stream());
            json.writeStringProperty("instance", a.instance());
            json.writeStringProperty("originKey", a.originKey());
            json.writeArrayPropertyStart("sessions");
            for (SwarmService.Session s : a.sessions()) {
                json.writeStartObject();
                json.writeStringProperty("key", s.key());
                json.writeNumberProperty("notAfter", s.notAfter());
                json.writeStringProperty("endorsement", s.endorsement());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeStringProperty("nostr", a.nostr());
            json.writeArrayPropertyStart("iceServers");
            for (TurnAccess.IceServer ice : a.iceServers()) {
                json.writeStartObject();
                json.writeArrayPropertyStart("urls");
                for (String url : ice.urls()) {
                    json.writeString(url);
                }
                json.writeEndArray();
                json.writeStringProperty("username", ice.username());
                json.writeStringProperty("credential", ice.credential());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberProperty("credentialTtlSeconds", a.credentialTtlSeconds());
            json.writeEndObject();
        });
    }

    static String kicked(String name, String instanceId) {
        return write(json -> {
            json.writeStartObject();
            json.writeStringProperty("name", name);
            json.writeStringProperty("instanceId", instanceId);
            json.writeBooleanProperty("disconnected", true);
            json.writeEndObject();
        });
    }
}
