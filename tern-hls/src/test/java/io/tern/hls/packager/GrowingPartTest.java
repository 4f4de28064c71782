package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.media.Chunk;
import io.tern.hls.media.MediaObject;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.ObjectAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The preload-hinted part is requested before it exists and served while it is written: the
 * bytes streamed chunk by chunk are exactly the bytes later served for the finished part, and
 * the chunks are the same handles (stored once, shared by every viewer).
 */
class GrowingPartTest {
    private final SyntheticStream stream = new SyntheticStream();
    private long fedMs;

    private void feed(Harness h, long ms) {
        h.feed(stream.generate(fedMs, ms));
        fedMs += ms;
    }

    /** Streams a growing part as an adapter would: chunks now, then more on each event. */
    private static final class Viewer {
        final long ticket;
        final List<Chunk> received = new ArrayList<>();
        int events;
        boolean complete;

        Viewer(ObjectAnswer.Growing g) {
            this.ticket = g.ticket();
            if (g.streaming()) {
                take(g.object());
            }
        }

        void take(MediaObject part) {
            for (int i = received.size(); i < part.chunkCount(); i++) {
                received.add(part.chunk(i));
            }
        }

        void on(HlsEvent e) {
            if (e instanceof HlsEvent.PartProgress p
                    && Arrays.stream(p.tickets()).anyMatch(t -> t == ticket)) {
                events++;
                take(p.part());
                complete = p.part().complete();
            }
        }

        byte[] bytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            received.forEach(c -> out.writeBytes(c.toArray()));
            return out.toByteArray();
        }
    }

    @Test
    void theHintedPartIsStreamedAsItIsWrittenAndEndsAsTheFinishedPart() {
        Harness h = Harness.av();
        feed(h, 3_000);
        for (TrackType t : TrackType.values()) {
            String hinted = h.playlist(t).preloadHints.get(0).get("URI");
            ObjectAnswer a = h.packager.object(hinted, h.nowNs);
            assertThat(a).isInstanceOf(ObjectAnswer.Growing.class);
            ObjectAnswer.Growing g = (ObjectAnswer.Growing) a;
            assertThat(g.streaming()).isTrue();
            assertThat(g.object().complete()).isFalse();
            Viewer viewer = new Viewer(g);
            int before = h.events.size();
            feed(h, 300);
            h.events.subList(before, h.events.size()).forEach(viewer::on);

            assertThat(viewer.complete).isTrue();
            assertThat(viewer.events).as("one event per chunk").isGreaterThan(1);
            MediaObject done = ((ObjectAnswer.Found) h.packager.object(hinted, h.nowNs)).object();
            assertThat(viewer.bytes()).isEqualTo(Harness.concat(done));
            for (int i = 0; i < done.chunkCount(); i++) {
                assertThat(viewer.received.get(i)).isSameAs(done.chunk(i));
            }
            // Video: one chunk per frame; audio: three AAC frames per chunk.
            assertThat(done.chunkCount()).isEqualTo(t == TrackType.VIDEO ? 6 : 3);
            assertThat(h.playlist(t).parts()).extracting(M3u8.PartTag::uri).contains(hinted);
        }
    }

    @Test
    void aSegmentIsItsPartsAndSharesTheirChunks() {
        Harness h = Harness.av();
        feed(h, 5_000);
        M3u8 v = h.playlist(TrackType.VIDEO);
        M3u8.Seg seg = v.completeSegments().get(v.completeSegments().size() - 1);
        MediaObject segment = ((ObjectAnswer.Found) h.packager.object(seg.uri, h.nowNs)).object();
        int i = 0;
        for (M3u8.PartTag p : seg.parts) {
            MediaObject part = ((ObjectAnswer.Found) h.packager.object(p.uri(), h.nowNs)).object();
            for (int c = 0; c < part.chunkCount(); c++) {
                assertThat(segment.chunk(i++)).isSameAs(part.chunk(c));
            }
        }
        assertThat(i).isEqualTo(segment.chunkCount());
    }

    @Test
    void inWholePartModeTheRequestIsAnsweredOnceTheWholePartIsThere() {
        Harness h = new Harness(
                PackagerConfig.defaults("w")
                        .withPartDelivery(PartDelivery.WHOLE_PART)
                        .withRenditions(RenditionMode.SEPARATE),
                StreamLayout.VIDEO_AND_AUDIO);
        h.configure(TestMedia.avc720p(), TestMedia.aac48k());
        feed(h, 3_000);
        String hinted = h.playlist(TrackType.VIDEO).preloadHints.get(0).get("URI");
        ObjectAnswer.Growing g = (ObjectAnswer.Growing) h.packager.object(hinted, h.nowNs);
        assertThat(g.streaming()).isFalse();
        Viewer viewer = new Viewer(g);
        int before = h.events.size();
        feed(h, 300);
        h.events.subList(before, h.events.size()).forEach(viewer::on);

        assertThat(viewer.events).isEqualTo(1);
        assertThat(viewer.complete).isTrue();
        assertThat(viewer.bytes()).isEqualTo(h.bytes(hinted));
    }

    @Test
    void aPartRequestedBeforeTheStreamStartsIsServedWhenItIsWritten() {
        Harness h = Harness.av();
        ObjectAnswer.Growing g = (ObjectAnswer.Growing) h.packager.object("video-p0.m4s", h.nowNs);
        Viewer viewer = new Viewer(g);
        feed(h, 400);
        h.events.forEach(viewer::on);
        assertThat(viewer.complete).isTrue();
        assertThat(viewer.bytes()).isEqualTo(h.bytes("video-p0.m4s"));
    }

    @Test
    void onlyTheHintedPartCanBeRequestedAhead() {
        Harness h = Harness.av();
        feed(h, 3_000);
        String hinted = h.playlist(TrackType.VIDEO).preloadHints.get(0).get("URI");
        long id = Long.parseLong(hinted.substring("video-p".length(), hinted.length() - 4));
        assertThat(h.packager.object("video-p" + (id + 1) + ".m4s", h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        assertThat(h.packager.object("video-99.m4s", h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        for (String bad :
                List.of("video-p01.m4s", "video-p-1.m4s", "video-init-0.mp4x", "../video-1.m4s", "audio-", "")) {
            assertThat(h.packager.object(bad, h.nowNs)).as(bad).isInstanceOf(ObjectAnswer.NotFound.class);
        }
    }

    @Test
    void whenTheStreamEndsBeforeTheHintedPartHasMediaItsRequestsGet404() {
        Harness h = new Harness(PackagerConfig.defaults("e"), StreamLayout.AUDIO_ONLY);
        h.configure(TestMedia.aac48k());
        stream.video = false;
        feed(h, 1_920); // exactly 90 AAC frames: ten full parts, the hinted eleventh still empty
        String hinted = h.playlist(TrackType.AUDIO).preloadHints.get(0).get("URI");
        ObjectAnswer.Growing g = (ObjectAnswer.Growing) h.packager.object(hinted, h.nowNs);
        assertThat(g.object().chunkCount()).isZero();

        h.end();

        List<HlsEvent.RequestFailed> failed = h.events(HlsEvent.RequestFailed.class);
        assertThat(failed).hasSize(1);
        assertThat(failed.get(0).tickets()).containsExactly(g.ticket());
        assertThat(failed.get(0).status()).isEqualTo(404);
        assertThat(h.packager.object(hinted, h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        assertThat(h.packager.heldRequests()).isZero();
    }
}
