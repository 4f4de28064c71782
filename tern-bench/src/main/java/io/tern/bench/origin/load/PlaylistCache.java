package io.tern.bench.origin.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.tern.bench.origin.measure.MediaTimeline;
import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.playlist.Playlist;
import io.tern.bench.origin.playlist.PlaylistParser;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Parses each distinct playlist body once per event loop. Most viewers receive byte-identical
 * playlists (the same version of the same rendition), so a body is compared with the last few
 * versions of its URL and, when equal, the parsed playlist is shared: the generator's cost per
 * playlist request is then a byte comparison, not a parse. The first arrival of a version lists
 * its items on the run's {@link MediaTimeline}.
 */
final class PlaylistCache {
    static final int VERSIONS = 4;

    private static final class Version {
        final ByteBuf body;
        final Playlist parsed;

        Version(ByteBuf body, Playlist parsed) {
            this.body = body;
            this.parsed = parsed;
        }
    }

    private static final class Versions {
        final Version[] ring = new Version[VERSIONS];
        int next;
    }

    private final MediaTimeline timeline;
    private final Map<String, Versions> byPath = new HashMap<>();
    private long parses;
    private long hits;

    PlaylistCache(MediaTimeline timeline) {
        this.timeline = timeline;
    }

    /**
     * The playlist in {@code body} (readable bytes), fetched from {@code path} (without the
     * blocking directives). Throws {@link IllegalArgumentException} when it does not parse.
     */
    Playlist playlist(String path, ByteBuf body, long nowNs) {
        Versions v = byPath.get(path);
        if (v == null) {
            v = new Versions();
            byPath.put(path, v);
        }
        int length = body.readableBytes();
        for (int k = 1; k <= VERSIONS; k++) {
            Version c = v.ring[(v.next - k + VERSIONS) % VERSIONS];
            if (c != null
                    && c.body.readableBytes() == length
                    && ByteBufUtil.equals(c.body, 0, body, body.readerIndex(), length)) {
                hits++;
                return c.parsed;
            }
        }
        Playlist parsed = PlaylistParser.parse(path, body.toString(StandardCharsets.ISO_8859_1));
        parses++;
        if (parsed instanceof MediaPlaylist mp) {
            timeline.listed(mp, nowNs);
        }
        v.ring[v.next] = new Version(Unpooled.copiedBuffer(body), parsed);
        v.next = (v.next + 1) % VERSIONS;
        return parsed;
    }

    long parses() {
        return parses;
    }

    long hits() {
        return hits;
    }
}
