package io.tern.hls.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.mp4.Mp4Reader;
import io.tern.media.TrackType;
import java.io.ByteArrayOutputStream;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Checks that what a playlist lists is downloadable and well formed. */
public final class Objects {
    private Objects() {}

    /**
     * Every listed segment parses (with the init segment its EXT-X-MAP names), its parts are its
     * exact byte prefix pieces, and decode times never go backwards across the playlist.
     */
    public static void assertWellFormed(Harness h, TrackType track) {
        M3u8 p = h.playlist(track);
        String map = p.maps.get(0);
        Map<Integer, Long> lastEnd = new HashMap<>();
        for (M3u8.Seg s : p.segments) {
            if (s.map != null) {
                map = s.map;
            }
            byte[] init = h.bytes(map);
            ByteArrayOutputStream parts = new ByteArrayOutputStream();
            for (M3u8.PartTag part : s.parts) {
                parts.writeBytes(h.bytes(part.uri()));
            }
            byte[] body = s.complete() ? h.bytes(s.uri) : parts.toByteArray();
            if (!s.parts.isEmpty()) {
                assertThat(parts.toByteArray())
                        .as("segment %d is its parts", s.msn)
                        .isEqualTo(body);
            }
            Mp4Reader r = Mp4Reader.read(concat(init, body));
            // Every track of the init segment (a muxed rendition has two), each on its own
            // timeline; the first (video, when there is one) must have samples in every segment.
            List<Mp4Reader.Track> tracks = r.tracks.values().stream()
                    .sorted(Comparator.comparingInt(Mp4Reader.Track::trackId))
                    .toList();
            for (Mp4Reader.Track t : tracks) {
                List<Mp4Reader.Sample> samples = r.samples(t.trackId());
                if (t == tracks.get(0)) {
                    assertThat(samples).isNotEmpty();
                }
                if (samples.isEmpty()) {
                    continue;
                }
                long first = samples.get(0).dts() * 90_000 / t.timescale();
                assertThat(first)
                        .as("segment %d, track %d starts after the previous one ends", s.msn, t.trackId())
                        .isGreaterThanOrEqualTo(lastEnd.getOrDefault(t.trackId(), -1L) - 1);
                Mp4Reader.Sample last = samples.get(samples.size() - 1);
                lastEnd.put(t.trackId(), (last.dts() + last.duration()) * 90_000 / t.timescale());
            }
        }
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
