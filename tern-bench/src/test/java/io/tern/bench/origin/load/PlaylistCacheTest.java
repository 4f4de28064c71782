package io.tern.bench.origin.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tern.bench.origin.measure.MediaTimeline;
import io.tern.bench.origin.playlist.Playlist;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PlaylistCacheTest {
    static final long MS = 1_000_000L;

    private static ByteBuf body(String s) {
        // Readable bytes in the middle of a larger buffer, as a connection's gathered body may be.
        ByteBuf b = Unpooled.buffer();
        b.writeBytes("junk".getBytes(StandardCharsets.US_ASCII));
        b.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
        b.readerIndex(4);
        return b;
    }

    static String playlist(int last) {
        StringBuilder sb = new StringBuilder("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n");
        for (int m = 0; m <= last; m++) {
            sb.append("#EXTINF:1.0,\ns").append(m).append(".ts\n");
        }
        return sb.toString();
    }

    @Test
    void identicalBodiesAreParsedOnceAndListedAtTheirFirstArrival() {
        MediaTimeline t = new MediaTimeline();
        PlaylistCache c = new PlaylistCache(t);
        Playlist a = c.playlist("/hls/s.m3u8", body(playlist(5)), 100 * MS);
        Playlist b = c.playlist("/hls/s.m3u8", body(playlist(5)), 200 * MS);
        assertThat(b).isSameAs(a);
        assertThat(c.parses()).isEqualTo(1);
        assertThat(c.hits()).isEqualTo(1);
        assertThat(t.deliveryDelayNs("/hls/s.m3u8", 5, -1, 300 * MS)).isEqualTo(200 * MS);
        Playlist n = c.playlist("/hls/s.m3u8", body(playlist(6)), 1100 * MS);
        assertThat(n).isNotSameAs(a);
        assertThat(t.deliveryDelayNs("/hls/s.m3u8", 6, -1, 1150 * MS)).isEqualTo(50 * MS);
        // An older version still in the ring is recognised.
        assertThat(c.playlist("/hls/s.m3u8", body(playlist(5)), 1200 * MS)).isSameAs(a);
        assertThat(c.parses()).isEqualTo(2);
    }

    @Test
    void versionsAreKeptPerUrlAndBoundedInNumber() {
        PlaylistCache c = new PlaylistCache(new MediaTimeline());
        Playlist first = c.playlist("/a.m3u8", body(playlist(0)), 0);
        c.playlist("/b.m3u8", body(playlist(0)), 0);
        assertThat(c.parses()).isEqualTo(2);
        for (int i = 1; i <= PlaylistCache.VERSIONS; i++) {
            c.playlist("/a.m3u8", body(playlist(i)), i);
        }
        assertThat(c.playlist("/a.m3u8", body(playlist(0)), 99)).isNotSameAs(first);
    }

    @Test
    void malformedBodiesAreNotCached() {
        PlaylistCache c = new PlaylistCache(new MediaTimeline());
        assertThatThrownBy(() -> c.playlist("/a.m3u8", body("nope"), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.playlist("/a.m3u8", body("nope"), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(c.hits()).isZero();
    }
}
