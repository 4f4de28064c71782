package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.hls.Served;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.NginxCache;
import io.tern.server.origin.interop.HlsPlayer.Playback;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Debian's nginx as a caching reverse proxy in front of the origin, with the README's config
 * ({@code src/test/origin/nginx/tern-cache.conf}): hls.js plays through it in low-latency mode (a
 * 20 s run) beside four more LL viewers, and the origin sees about one request per part, the
 * others served from nginx's cache by request collapsing ({@code proxy_cache_lock}).
 */
class CdnPlaybackTest {
    private static final int SECONDS = 20;
    private static final int VIEWERS = 4;
    private static final Pattern PART = Pattern.compile("\"GET (/live/cam1/[^/ ]+/(?:video|audio)-p\\d+\\.m4s) ");
    private static final Pattern BLOCKING = Pattern.compile("\"GET (/live/cam1/[^ ]+\\.m3u8\\?[^ ]*_HLS_msn=[^ ]*) ");

    @Test
    void hlsJsPlaysThroughNginxAndTheOriginSeesAboutOneRequestPerPart() throws Exception {
        FfmpegPublisher.require();
        NginxCache.require();
        try (OriginFixture origin = new OriginFixture("no-publish-auth");
                HlsPlayer player = new HlsPlayer();
                FfmpegPublisher ffmpeg = FfmpegPublisher.rtmp(origin.rtmpUrl("cam1"), 0);
                NginxCache nginx = NginxCache.start(origin.server.httpPort())) {
            String instance = origin.awaitStream("cam1", 20_000);
            List<LlViewer> viewers = new ArrayList<>();
            for (int i = 0; i < VIEWERS; i++) {
                viewers.add(new LlViewer(nginx.url("/live/cam1/" + instance + "/video.m3u8")));
            }
            long originPartsBefore = originParts(origin);
            Playback playback = player.play(nginx.url("/live/cam1/index.m3u8"), SECONDS);
            for (LlViewer v : viewers) {
                v.stop();
            }
            long originParts = originParts(origin) - originPartsBefore;

            String log = Files.readString(nginx.prefix().resolve("access.log"));
            Set<String> partUrls = distinct(PART, log);
            Set<String> blockingUrls = distinct(BLOCKING, log);
            long viewerPartRequests = count(PART, log);
            double perPart = (double) originParts / partUrls.size();
            long originBlocking = origin.server.counters().servedResponses(Served.BLOCKING_PLAYLIST);
            System.out.printf(
                    "hls.js through nginx: %s%nthrough nginx: %d part requests for %d parts reached the origin as %d"
                            + " (%.2f per part); %d blocking reloads for %d URLs reached it as %d; LL viewers got %s"
                            + " parts%n",
                    playback.summary(),
                    viewerPartRequests,
                    partUrls.size(),
                    originParts,
                    perPart,
                    count(BLOCKING, log),
                    blockingUrls.size(),
                    originBlocking,
                    viewers.stream().map(v -> v.parts.get()).toList());

            assertThat(playback.stalls()).as("stalls; %s", playback.summary()).isZero();
            assertThat(playback.advanceRate()).isBetween(0.95, 1.05);
            assertThat(playback.maxLatency(3))
                    .as("hls.js latency; %s", playback.summary())
                    .isLessThan(1.5);
            assertThat(playback.maxPdtLatency(3))
                    .as("PDT latency; %s", playback.summary())
                    .isLessThan(1.5);
            for (LlViewer v : viewers) {
                assertThat(v.errors.get()).isZero();
                assertThat(v.parts.get()).isGreaterThan(SECONDS * 3);
            }
            assertThat(viewerPartRequests)
                    .as("the viewers asked nginx for each part several times")
                    .isGreaterThan(partUrls.size() * 2L);
            assertThat(perPart).as("origin requests per part").isBetween(0.9, 1.2);
            assertThat((double) originBlocking / blockingUrls.size())
                    .as("origin requests per blocking-reload URL")
                    .isLessThan(1.2);
            assertThat(ffmpeg.isAlive()).as(ffmpeg.log()).isTrue();
        }
    }

    private static long originParts(OriginFixture origin) {
        return origin.server.counters().servedResponses(Served.PART)
                + origin.server.counters().servedResponses(Served.HINTED_PART);
    }

    private static Set<String> distinct(Pattern p, String log) {
        Set<String> out = new HashSet<>();
        Matcher m = p.matcher(log);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static long count(Pattern p, String log) {
        return p.matcher(log).results().count();
    }
}
