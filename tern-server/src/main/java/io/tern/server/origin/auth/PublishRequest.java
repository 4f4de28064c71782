package io.tern.server.origin.auth;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A publisher asking to publish a stream: what the ingest (RTMP {@code publish}, SRT stream id)
 * knows when it must decide.
 *
 * @param protocol {@code rtmp} or {@code srt}
 * @param app      the application ({@code live} in {@code rtmp://host/live/cam1})
 * @param name     the stream name ({@code cam1}), without the query
 * @param remote   the publisher's address
 * @param query    the query that came with the name ({@code token=...&x=y}), raw; empty for none
 */
public record PublishRequest(String protocol, String app, String name, InetSocketAddress remote, String query) {
    public PublishRequest {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(remote, "remote");
        query = query == null ? "" : query;
    }

    /** The stream's path, {@code app/name}: what a publish token signs. */
    public String streamPath() {
        return app + "/" + name;
    }

    /** The first value of query parameter {@code key}, percent-decoded; null when absent. */
    public String queryParameter(String key) {
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String k = equals < 0 ? pair : pair.substring(0, equals);
            if (decode(k).equals(key)) {
                return equals < 0 ? "" : decode(pair.substring(equals + 1));
            }
        }
        return null;
    }

    private static String decode(String s) {
        try {
            return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
