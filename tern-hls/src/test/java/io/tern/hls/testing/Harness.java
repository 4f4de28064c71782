package io.tern.hls.testing;

import io.tern.hls.media.HeapChunkStore;
import io.tern.hls.media.MediaObject;
import io.tern.hls.packager.LlHlsPackager;
import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.ObjectAnswer;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.hls.swarm.StreamSigner;
import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Drives a packager the way the origin will: frames in at their media time (simulated, so the
 * clock is exact and nothing sleeps), events drained after every input.
 */
public final class Harness {
    public final FakeWallClock wall = new FakeWallClock();
    /** Where the packager keeps its media: tests read what it still holds. */
    public final HeapChunkStore store = new HeapChunkStore();

    public final LlHlsPackager packager;
    public final List<HlsEvent> events = new ArrayList<>();
    public long nowNs = 1_000_000_000L;
    /** Called after every access unit, with the events it produced drained into {@link #events}. */
    public Consumer<AccessUnit> afterEach = au -> {};

    private long startNs = -1;
    private long startDts;

    public Harness(PackagerConfig config, StreamLayout layout) {
        this(config, layout, null);
    }

    /** A packager whose objects {@code signer} attests (peer-assisted delivery), or not when null. */
    public Harness(PackagerConfig config, StreamLayout layout, StreamSigner signer) {
        packager = new LlHlsPackager(config, layout, wall, store, signer);
    }

    /** Video and audio as separate renditions, the shape most packager tests are written against. */
    public static Harness av() {
        Harness h = new Harness(
                PackagerConfig.defaults("t1").withRenditions(RenditionMode.SEPARATE), StreamLayout.VIDEO_AND_AUDIO);
        h.configure(TestMedia.avc720p(), TestMedia.aac48k());
        return h;
    }

    public Harness configure(CodecConfig... configs) {
        for (CodecConfig c : configs) {
            packager.onConfig(c, nowNs);
        }
        drain();
        return this;
    }

    /** Feeds frames; time advances with their decode times (real time, as a live ingest). */
    public Harness feed(List<AccessUnit> units) {
        for (AccessUnit au : units) {
            if (startNs < 0) {
                startNs = nowNs;
                startDts = au.dts();
            }
            long t = startNs + (au.dts() - startDts) * 100_000 / 9;
            if (t > nowNs) {
                advance(t - nowNs);
            }
            packager.onAccessUnit(au, nowNs);
            drain();
            afterEach.accept(au);
        }
        return this;
    }

    /** Moves the clocks forward, running timeouts that fall due. */
    public void advance(long ns) {
        long target = nowNs + ns;
        while (packager.nextDeadlineNs() <= target) {
            long d = Math.max(nowNs, packager.nextDeadlineNs());
            wall.nowMs += (d - nowNs) / 1_000_000;
            nowNs = d;
            packager.onTimeout(nowNs);
            drain();
        }
        wall.nowMs += (target - nowNs) / 1_000_000;
        nowNs = target;
    }

    /** Restarts the media-time-to-clock mapping (after a timestamp jump). */
    public void resync() {
        startNs = -1;
    }

    public void end() {
        packager.onEndOfStream(nowNs);
        drain();
    }

    public void drain() {
        for (HlsEvent e; (e = packager.pollEvent()) != null; ) {
            events.add(e);
        }
    }

    public PlaylistAnswer request(TrackType track, String query) {
        PlaylistRequest.Parsed parsed = PlaylistRequest.parse(query);
        if (!parsed.ok()) {
            return new PlaylistAnswer.Error(400, parsed.error()); // what the adapter answers
        }
        PlaylistAnswer a = packager.mediaPlaylist(track, parsed.request(), nowNs);
        drain();
        return a;
    }

    public M3u8 playlist(TrackType track) {
        return playlist(track, "");
    }

    public M3u8 playlist(TrackType track, String query) {
        PlaylistAnswer a = request(track, query);
        if (!(a instanceof PlaylistAnswer.Ready r)) {
            throw new AssertionError("playlist not ready: " + a);
        }
        return M3u8.parse(r.body());
    }

    /** The playlist if it can be answered now; a request that would be held is cancelled. */
    public M3u8 playlistIfReady(TrackType track) {
        PlaylistAnswer a = request(track, "");
        if (a instanceof PlaylistAnswer.Wait w) {
            packager.cancel(w.ticket());
            return null;
        }
        return M3u8.parse(((PlaylistAnswer.Ready) a).body());
    }

    public byte[] playlistBytes(TrackType track, String query) {
        PlaylistAnswer a = request(track, query);
        if (!(a instanceof PlaylistAnswer.Ready r)) {
            throw new AssertionError("playlist not ready: " + a);
        }
        return r.body();
    }

    public M3u8 multivariant() {
        PlaylistAnswer a = packager.multivariantPlaylist(nowNs);
        if (!(a instanceof PlaylistAnswer.Ready r)) {
            throw new AssertionError("multivariant not ready: " + a);
        }
        return M3u8.parse(r.body());
    }

    /** The bytes of a finished object. */
    public byte[] bytes(String name) {
        ObjectAnswer a = packager.object(name, nowNs);
        if (!(a instanceof ObjectAnswer.Found f)) {
            throw new AssertionError(name + ": " + a);
        }
        return concat(f.object());
    }

    public static byte[] concat(MediaObject o) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < o.chunkCount(); i++) {
            out.writeBytes(o.chunk(i).toArray());
        }
        return out.toByteArray();
    }

    public <T extends HlsEvent> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public static String query(long msn, long part) {
        return part < 0 ? "_HLS_msn=" + msn : "_HLS_msn=" + msn + "&_HLS_part=" + part;
    }
}
