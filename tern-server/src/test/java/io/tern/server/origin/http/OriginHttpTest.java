package io.tern.server.origin.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.testing.M3u8;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpCounters;
import io.tern.server.origin.http.EmbeddedOrigin.Client;
import io.tern.server.origin.http.EmbeddedOrigin.Publisher;
import io.tern.server.origin.http.EmbeddedOrigin.Response;
import io.tern.server.origin.metrics.OriginCounters.Cause;
import io.tern.server.origin.registry.PublishOutcome;
import io.tern.server.origin.registry.StreamRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The LL-HLS rules that live at the HTTP level, through the origin's registry, streams and routes
 * with simulated time: blocking reloads held and released (400 and 503 where §6.2.5 says), the
 * preload-hinted part streamed as it is written (or sent whole), and the caching, CORS and gzip
 * headers a CDN and a player rely on.
 */
class OriginHttpTest {
    private static final String PLAYLIST_TYPE = "application/vnd.apple.mpegurl";
    /** Media fed when the hinted part has just begun: frames are written one frame late, parts are 6 frames. */
    private static final long FRESH_PART_MS = 3070;

    @Test
    void aBlockingReloadIsHeldUntilItsPartIsListedThenReleasedCacheable() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher cam = origin.publish("cam1").feedMs(3000);
            M3u8 now = playlist(origin.connect(), cam.path("video.m3u8"));
            M3u8.Seg open = now.segments.get(now.segments.size() - 1);
            assertThat(open.complete()).as("the last segment is still open").isFalse();
            long msn = open.msn;
            int next = open.parts.size();

            Client held = origin.connect().get(cam.path("video.m3u8?_HLS_msn=" + msn + "&_HLS_part=" + next));
            assertThat(held.last()).as("held until the part exists").isNull();
            assertThat(origin.counters.heldNow()).isEqualTo(1);

            cam.feedMs(300);
            Response released = held.last();
            assertThat(released).as("released once the part is listed").isNotNull();
            assertThat(released.status()).isEqualTo(200);
            assertThat(released.header("Content-Type")).isEqualTo(PLAYLIST_TYPE);
            assertThat(released.header("Cache-Control"))
                    .as("the URL names the part it waited for, so a CDN may keep the answer")
                    .isEqualTo("public, max-age=6");
            M3u8 answer = M3u8.parse(released.text());
            M3u8.Seg segment = answer.segments.stream()
                    .filter(s -> s.msn == msn)
                    .findFirst()
                    .orElseThrow();
            assertThat(segment.parts.size()).as("the part waited for is listed").isGreaterThan(next);
            assertThat(origin.counters.heldNow()).isZero();
        }
    }

    @Test
    void everyViewerWaitingForAPartIsReleasedByTheSameInputWithOneBodyPerVariant() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher cam = origin.publish("cam1").feedMs(30_000);
            M3u8 now = playlist(origin.connect(), cam.path("video.m3u8"));
            M3u8.Seg open = now.segments.get(now.segments.size() - 1);
            String wait = "video.m3u8?_HLS_msn=" + open.msn + "&_HLS_part=" + open.parts.size();
            List<Client> full = new java.util.ArrayList<>();
            List<Client> delta = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) { // each client is its own event loop: a release spans loops
                full.add(origin.connect().get(cam.path(wait)));
                delta.add(origin.connect().get(cam.path(wait + "&_HLS_skip=YES")));
            }
            assertThat(origin.counters.heldNow()).isEqualTo(12);

            for (int step = 0; step < 50 && full.get(0).last() == null; step++) {
                cam.feedMs(10);
            }
            assertThat(full.get(0).last())
                    .as("released once the part is listed")
                    .isNotNull();
            assertThat(origin.counters.heldNow())
                    .as("the input that listed the part released every waiter")
                    .isZero();
            byte[] fullBody = full.get(0).last().bytes();
            byte[] deltaBody = delta.get(0).last().bytes();
            for (int i = 0; i < 6; i++) {
                Response f = full.get(i).last();
                Response d = delta.get(i).last();
                assertThat(f.complete && d.complete)
                        .as("answered whole by the same input")
                        .isTrue();
                assertThat(f.status()).isEqualTo(200);
                assertThat(d.status()).isEqualTo(200);
                assertThat(f.bytes()).as("one body for every full reload").isEqualTo(fullBody);
                assertThat(d.bytes()).as("one body for every delta reload").isEqualTo(deltaBody);
            }
            String deltaText = delta.get(0).last().text();
            assertThat(deltaText)
                    .as("the delta update skips segments (§6.2.5.1)")
                    .contains("#EXT-X-SKIP:");
            assertThat(full.get(0).last().text()).doesNotContain("#EXT-X-SKIP");
            M3u8.Seg waited = M3u8.parse(full.get(0).last().text()).segments.stream()
                    .filter(s -> s.msn == open.msn)
                    .findFirst()
                    .orElseThrow();
            assertThat(waited.parts.size()).as("the awaited part is listed").isGreaterThan(open.parts.size());
        }
    }

    @Test
    void blockingReloadsBeyondTheRulesGet400AndAreNotCached() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher cam = origin.publish("cam1").feedMs(3000);
            M3u8 now = playlist(origin.connect(), cam.path("video.m3u8"));
            long lastComplete = now.segments.stream()
                    .filter(M3u8.Seg::complete)
                    .mapToLong(seg -> seg.msn)
                    .max()
                    .orElseThrow();

            Response partOnly =
                    origin.connect().get(cam.path("video.m3u8?_HLS_part=1")).last();
            assertThat(partOnly.status()).as("_HLS_part without _HLS_msn").isEqualTo(400);
            assertThat(partOnly.header("Cache-Control")).isEqualTo("no-store");

            Response tooFar = origin.connect()
                    .get(cam.path("video.m3u8?_HLS_msn=" + (lastComplete + 3)))
                    .last();
            assertThat(tooFar.status()).as("an MSN more than two ahead").isEqualTo(400);
            assertThat(tooFar.text()).contains("more than two segments");
            assertThat(tooFar.header("Cache-Control")).isEqualTo("no-store");

            Client twoAhead = origin.connect().get(cam.path("video.m3u8?_HLS_msn=" + (lastComplete + 2)));
            assertThat(twoAhead.last()).as("two ahead is allowed and held").isNull();
        }
    }

    @Test
    void aRequestHeldThreeTargetDurationsGets503Exactly() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher cam = origin.publish("cam1").feedMs(3000);
            M3u8 now = playlist(origin.connect(), cam.path("video.m3u8"));
            long last = now.segments.get(now.segments.size() - 1).msn;
            Client held = origin.connect().get(cam.path("video.m3u8?_HLS_msn=" + (last + 1)));
            // The publisher stalls: nothing more arrives.
            origin.advanceMs(5999);
            assertThat(held.last())
                    .as("still held just before 3 x TARGETDURATION (6 s)")
                    .isNull();
            origin.advanceMs(1);
            Response expired = held.last();
            assertThat(expired.status()).isEqualTo(503);
            assertThat(expired.header("Cache-Control")).isEqualTo("no-store");
            assertThat(origin.counters.errors(Cause.HELD_REQUEST_TIMEOUT)).isEqualTo(1);
            assertThat(origin.counters.heldNow()).isZero();
            assertThat(origin.service.counters().count(HttpCounters.Event.HELD_TIMED_OUT))
                    .as("the packager's deadline is the one timeout: the exchange has no timer of its own")
                    .isZero();
            assertThat(origin.service.counters().heldNow()).isZero();
        }
    }

    @Test
    void thePreloadHintedPartIsStreamedAsItIsWrittenWithTheBytesOfTheFinishedPart() throws Exception {
        // Separate renditions: a muxed part is written whole when it is cut, so only these stream.
        try (EmbeddedOrigin origin = new EmbeddedOrigin("renditions=separate")) {
            // 3.07 s: a part (6 frames, 200 ms) has just begun, with one frame in it.
            Publisher cam = origin.publish("cam1").feedMs(FRESH_PART_MS);
            M3u8 now = playlist(origin.connect(), cam.path("video.m3u8"));
            String hint = now.preloadHints.get(0).get("URI");

            Client viewer = origin.connect().get(cam.path(hint));
            Response streaming = viewer.last();
            assertThat(streaming).as("headers go out at once").isNotNull();
            assertThat(streaming.status()).isEqualTo(200);
            assertThat(streaming.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(streaming.header("Cache-Control")).isEqualTo("public, max-age=31536000, immutable");
            assertThat(streaming.header("Content-Type")).isEqualTo("video/mp4");
            assertThat(streaming.complete).isFalse();

            int before = streaming.bytes().length;
            boolean grewWhileIncomplete = false;
            for (int frame = 0; frame < 20 && !streaming.complete; frame++) {
                cam.feedMs(34);
                grewWhileIncomplete |= !streaming.complete && streaming.bytes().length > before;
                before = streaming.bytes().length;
            }
            assertThat(grewWhileIncomplete)
                    .as("a frame's CMAF chunk arrives before the part is complete")
                    .isTrue();
            assertThat(streaming.complete)
                    .as("the body ends when the part is complete")
                    .isTrue();

            Response finished = origin.connect().get(cam.path(hint)).last();
            assertThat(finished.status()).isEqualTo(200);
            assertThat(finished.header("Content-Length")).isEqualTo(Integer.toString(finished.bytes().length));
            assertThat(finished.header("Cache-Control")).isEqualTo("public, max-age=31536000, immutable");
            assertThat(streaming.bytes())
                    .as("streamed bytes = the finished part's")
                    .isEqualTo(finished.bytes());
            assertThat(origin.counters.heldNow()).isZero();
        }
    }

    @Test
    void withWholePartDeliveryTheHintedPartIsSentOnlyWhenComplete() throws Exception {
        // Separate renditions: muxed parts go whole whatever --part-delivery says.
        try (EmbeddedOrigin origin = new EmbeddedOrigin("part-delivery=whole", "renditions=separate")) {
            Publisher cam = origin.publish("cam1").feedMs(FRESH_PART_MS);
            String hint = playlist(origin.connect(), cam.path("video.m3u8"))
                    .preloadHints
                    .get(0)
                    .get("URI");
            Client viewer = origin.connect().get(cam.path(hint));
            List<Client> others = List.of(
                    origin.connect().get(cam.path(hint)),
                    origin.connect().get(cam.path(hint)),
                    origin.connect().get(cam.path(hint)));
            cam.feedMs(40);
            assertThat(viewer.last())
                    .as("nothing before the part is complete (§6.2.6)")
                    .isNull();
            for (int step = 0; step < 40 && viewer.last() == null; step++) {
                cam.feedMs(10);
            }
            Response whole = viewer.last();
            assertThat(whole.status()).isEqualTo(200);
            assertThat(whole.complete).isTrue();
            assertThat(whole.header("Content-Length")).isEqualTo(Integer.toString(whole.bytes().length));
            assertThat(whole.header("Cache-Control"))
                    .isEqualTo(CacheControl.immutable().value().toString());
            for (Client other : others) {
                Response r = other.last();
                assertThat(r)
                        .as("every waiter answered by the input that completed the part")
                        .isNotNull();
                assertThat(r.complete).isTrue();
                assertThat(r.bytes()).isEqualTo(whole.bytes());
            }
            assertThat(origin.counters.heldNow()).isZero();
            long kept = origin.budget.usedBytes();
            assertThat(kept)
                    .as("the stream's media, the part's chunks among it, kept once off the heap")
                    .isGreaterThanOrEqualTo(whole.bytes().length);
            assertThat(whole.bytes())
                    .isEqualTo(origin.connect().get(cam.path(hint)).last().bytes());
            assertThat(origin.budget.usedBytes())
                    .as("the part's body is views of those chunks: a later viewer takes no direct memory")
                    .isEqualTo(kept);
        }
    }

    @Test
    void byDefaultAStreamIsOneMuxedVariantWhoseHintedPartComesWholeWithBothTracks() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher cam = origin.publish("cam1").feedMs(FRESH_PART_MS);
            String multivariant =
                    origin.connect().get("/live/cam1/index.m3u8").last().text();
            assertThat(multivariant).doesNotContain("EXT-X-MEDIA").contains("avc1.64001f,mp4a.40.2");
            assertThat(origin.connect().get(cam.path("audio.m3u8")).last().status())
                    .as("no audio rendition of its own")
                    .isNotEqualTo(200);
            String hint = playlist(origin.connect(), cam.path("video.m3u8"))
                    .preloadHints
                    .get(0)
                    .get("URI");

            Client viewer = origin.connect().get(cam.path(hint));
            cam.feedMs(100);
            Response early = viewer.last();
            assertThat(early == null ? 0 : early.bytes().length)
                    .as("no byte of the part before it is cut")
                    .isZero();
            for (int step = 0; step < 40 && (viewer.last() == null || !viewer.last().complete); step++) {
                cam.feedMs(10);
            }
            Response whole = viewer.last();
            assertThat(whole.status()).isEqualTo(200);
            assertThat(whole.complete).isTrue();
            String boxes = new String(whole.bytes(), StandardCharsets.ISO_8859_1);
            assertThat(boxes.split("traf", -1)).as("one traf per track").hasSize(3);
            assertThat(whole.bytes())
                    .isEqualTo(origin.connect().get(cam.path(hint)).last().bytes());
        }
    }

    @Test
    void cacheControlFitsACdnAndPlayersGetCorsAndGzippedPlaylists() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher cam = origin.publish("cam1").feedMs(5000);
            Client c = origin.connect();
            Response multivariant = c.get("/live/cam1/index.m3u8", "Origin: https://player.example")
                    .last();
            assertThat(multivariant.status()).isEqualTo(200);
            assertThat(multivariant.header("Cache-Control")).isEqualTo("public, max-age=1");
            assertThat(multivariant.header("Access-Control-Allow-Origin")).isEqualTo("*");
            assertThat(multivariant.text()).contains(cam.instanceId + "/video.m3u8");

            Response plain =
                    c.get(cam.path("video.m3u8"), "Accept-Encoding: gzip").last();
            assertThat(plain.header("Cache-Control"))
                    .as("a plain reload expires before the next part (200 ms)")
                    .isEqualTo("public, max-age=0");
            assertThat(plain.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(plain.header("Vary")).containsIgnoringCase("accept-encoding");

            M3u8 p = playlist(c, cam.path("video.m3u8"));
            M3u8.Seg done = p.segments.get(p.segments.size() - 2);
            Map<String, String> expectations = Map.of(
                    p.maps.get(0),
                    "init",
                    done.uri,
                    "segment",
                    done.parts.get(0).uri(),
                    "part");
            for (Map.Entry<String, String> e : expectations.entrySet()) {
                Response r =
                        c.get(cam.path(e.getKey()), "Accept-Encoding: gzip").last();
                assertThat(r.status()).as(e.getValue()).isEqualTo(200);
                assertThat(r.header("Cache-Control")).as(e.getValue()).isEqualTo("public, max-age=31536000, immutable");
                assertThat(r.header("Content-Encoding"))
                        .as("media is never gzipped")
                        .isNull();
                assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo("*");
            }

            Response missing = c.get(cam.path("video-p99999.m4s")).last();
            assertThat(missing.status()).isEqualTo(404);
            assertThat(missing.header("Cache-Control")).isEqualTo("no-store");
            assertThat(c.get("/live/cam1/other-instance/video.m3u8").last().status())
                    .isEqualTo(404);
            assertThat(c.get("/live/nobody/index.m3u8").last().status()).isEqualTo(404);
        }
    }

    @Test
    void theMultivariantPlaylistIsHeldUntilTheFirstSegments() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher cam = origin.publish("cam1").feedMs(500);
            Client early = origin.connect().get("/live/cam1/index.m3u8");
            assertThat(early.last()).isNull();
            cam.feedMs(2500);
            assertThat(early.last().status()).isEqualTo(200);
            assertThat(early.last().text()).contains("CODECS=\"avc1.64001f,mp4a.40.2\"");
        }
    }

    @Test
    void aSecondPublisherOfALiveStreamIsRefusedAndSeveralStreamsServeApart() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher one = origin.publish("cam1").feedMs(3000);
            PublishOutcome second = origin.publishOutcome("cam1");
            assertThat(second).isInstanceOf(PublishOutcome.Refused.class);
            assertThat(((PublishOutcome.Refused) second).reason())
                    .contains("already being published (by rtmp /192.0.2.7:50000)");
            assertThat(origin.counters.errors(Cause.PUBLISH_ALREADY_LIVE)).isEqualTo(1);

            Publisher two = origin.publish("cam2").feedMs(3000);
            one.feedMs(100);
            assertThat(two.instanceId).isNotEqualTo(one.instanceId);
            Client c = origin.connect();
            assertThat(playlist(c, one.path("video.m3u8")).segments).isNotEmpty();
            assertThat(playlist(c, two.path("video.m3u8")).segments).isNotEmpty();
            assertThat(c.get("/live/cam2/" + one.instanceId + "/video.m3u8")
                            .last()
                            .status())
                    .as("an instance id belongs to its stream")
                    .isEqualTo(404);

            for (String bad : List.of("../etc", "a/b", "", ".hidden")) {
                assertThat(origin.publishOutcome(bad)).as(bad).isInstanceOf(PublishOutcome.Refused.class);
            }
            assertThat(origin.counters.errors(Cause.PUBLISH_BAD_NAME)).isEqualTo(4);
        }
    }

    @Test
    void anEndedStreamListsEndListLingersAndIsReplacedByTheNextPublishUnderANewInstance() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            Publisher first = origin.publish("cam1").feedMs(3000);
            Client c = origin.connect();
            String hint =
                    playlist(c, first.path("video.m3u8")).preloadHints.get(0).get("URI");
            Client waiting = origin.connect().get(first.path(hint));
            first.input.end("publisher left");
            assertThat(waiting.last().complete)
                    .as("the publisher's last frames finish the hinted part")
                    .isTrue();
            M3u8 ended = playlist(c, first.path("video.m3u8"));
            assertThat(ended.endList).isTrue();
            assertThat(ended.preloadHints).isEmpty();

            origin.advanceMs(StreamRegistry.LINGER_MS - 1000);
            assertThat(c.get("/live/cam1/index.m3u8").last().status())
                    .as("lingers")
                    .isEqualTo(200);
            Publisher second = origin.publish("cam1");
            assertThat(second.instanceId).isNotEqualTo(first.instanceId);
            assertThat(c.get(first.path("video.m3u8")).last().status())
                    .as("the old instance is gone")
                    .isEqualTo(404);
            origin.advanceMs(2000);
            second.feedMs(3000);
            assertThat(playlist(c, second.path("video.m3u8")).endList).isFalse();
        }
    }

    @Test
    void anEndedStreamThatIsNotReplacedGoesAfterItsLinger() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin()) {
            origin.publish("cam1").feedMs(3000).input.end("publisher left");
            Client c = origin.connect();
            assertThat(c.get("/live/cam1/index.m3u8").last().status()).isEqualTo(200);
            origin.advanceMs(StreamRegistry.LINGER_MS);
            assertThat(c.get("/live/cam1/index.m3u8").last().status()).isEqualTo(404);
            assertThat(origin.registry.streams()).isEmpty();
        }
    }

    @Test
    void mediaIsKeptOnceOffTheHeapServedAsViewsAndLetGoOnceItLeavesTheWindows() throws Exception {
        try (EmbeddedOrigin origin = new EmbeddedOrigin("playlist-window-ms=6000")) {
            Publisher cam = origin.publish("cam1").feedMs(5000);
            Client c = origin.connect();
            M3u8 first = playlist(c, cam.path("video.m3u8"));
            M3u8.Seg oldest = first.segments.get(0);
            Response old = c.get(cam.path(oldest.uri)).last();
            assertThat(old.status()).isEqualTo(200);
            long held = origin.budget.usedBytes();
            assertThat(held).as("the stream's media, once, off the heap").isGreaterThan(old.bytes().length);
            assertThat(c.get(cam.path(oldest.uri)).last().bytes()).isEqualTo(old.bytes());
            assertThat(origin.budget.usedBytes())
                    .as("its bodies are views of the chunks: serving the segment took no direct memory")
                    .isEqualTo(held);

            cam.feedMs(20_000);
            assertThat(c.get(cam.path(oldest.uri)).last().status())
                    .as("the segment has left the window")
                    .isEqualTo(404);
            M3u8 later = playlist(c, cam.path("video.m3u8"));
            M3u8.Seg newest = later.segments.stream()
                    .filter(M3u8.Seg::complete)
                    .reduce((a, b) -> b)
                    .orElseThrow();
            Response fresh = c.get(cam.path(newest.uri)).last();
            assertThat(fresh.status()).isEqualTo(200);
            assertThat(origin.budget.usedBytes())
                    .as("the media kept is the windows', not the stream's: about 2 playlists of 6 s")
                    .isLessThan(held * 4);
        }
    }

    private static M3u8 playlist(Client c, String path) {
        Response r = c.get(path).last();
        assertThat(r.status()).as("%s: %s", path, r).isEqualTo(200);
        assertThat(r.complete).isTrue();
        return M3u8.parse(r.text());
    }
}
