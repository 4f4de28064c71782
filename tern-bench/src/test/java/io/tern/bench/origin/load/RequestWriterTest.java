package io.tern.bench.origin.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tern.bench.origin.playlist.PlaylistParser;
import io.tern.bench.origin.testing.NullRecorder;
import io.tern.bench.origin.testing.TernPlaylists;
import io.tern.bench.origin.viewer.ClassicViewer;
import io.tern.bench.origin.viewer.Exchange;
import io.tern.bench.origin.viewer.LowLatencyViewer;
import io.tern.bench.origin.viewer.Viewer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestWriterTest {
    static final int PLAYLISTS = Exchange.playlistConnection(0);
    static final int MEDIA = Exchange.mediaConnection(0);

    private static String written(Exchange ex) {
        RequestWriter w = new RequestWriter("127.0.0.1:8080");
        ByteBuf out = Unpooled.buffer(w.sizeHint(ex));
        int capacity = out.capacity();
        w.write(ex, out);
        assertThat(out.capacity()).as("the size hint was enough").isEqualTo(capacity);
        return out.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void plainGetWithHostOnly() {
        Viewer v = new ClassicViewer("/hls/stream.m3u8", true, 0, new NullRecorder());
        v.onTimer(0);
        assertThat(written(v.exchange(PLAYLISTS)))
                .isEqualTo("GET /hls/stream.m3u8 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
    }

    @Test
    void blockingReloadCarriesItsDirectives() {
        Viewer v = new LowLatencyViewer("/live/stream/index.m3u8", false, 0, new NullRecorder());
        TernPlaylists t = new TernPlaylists().advance(8 * 30 + 17);
        v.onTimer(0);
        Exchange p = v.exchange(PLAYLISTS);
        p.sent(0);
        v.onPlaylist(p, PlaylistParser.parse("/live/stream/index.m3u8", t.multivariant()), 1, 1);
        p.sent(1);
        v.onPlaylist(p, PlaylistParser.parse(TernPlaylists.videoPath(), t.video("")), 1, 2);
        assertThat(written(v.exchange(PLAYLISTS)))
                .isEqualTo("GET /live/stream/i1/video.m3u8?_HLS_msn=8&_HLS_part=2&_HLS_skip=v2 HTTP/1.1\r\n"
                        + "Host: 127.0.0.1:8080\r\n\r\n");
    }

    @Test
    void decimalsWithoutStrings() {
        for (long v : new long[] {0, 7, 9, 10, 99, 100, 12345, Long.MAX_VALUE, -42}) {
            ByteBuf b = Unpooled.buffer();
            RequestWriter.writeDecimal(b, v);
            assertThat(b.toString(StandardCharsets.US_ASCII)).isEqualTo(Long.toString(v));
        }
    }
}
