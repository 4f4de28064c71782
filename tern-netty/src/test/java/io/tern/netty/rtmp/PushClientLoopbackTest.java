package io.tern.netty.rtmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpSettings;
import io.tern.rtmp.session.RtmpStats;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Tern's push client against Tern's listener over loopback sockets: the adapters, without other peers. */
class PushClientLoopbackTest {
    private final IngestRecorder recorder = new IngestRecorder();
    private ListenerFixture fixture;

    @BeforeEach
    void start() throws InterruptedException {
        fixture = new ListenerFixture(2, RtmpListenerSettings.defaults(), recorder);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private RtmpPushClient push(String name) {
        return push(fixture, name);
    }

    private static RtmpPushClient push(ListenerFixture to, String name) {
        return RtmpPushClient.connect(
                to.group, URI.create(to.url(name)), RtmpSettings.defaults(), HandshakeScheme.DIGEST_OFFSET_772);
    }

    @Test
    void accessUnitsArriveInOrderAndTheEndIsReported() throws Exception {
        RtmpPushClient client = push("loop?k=v");
        client.published().get(10, TimeUnit.SECONDS);
        client.sendConfig(SyntheticMedia.AVC, 0);
        client.sendConfig(SyntheticMedia.AAC, 0);
        for (int i = 0; i < 60; i++) {
            client.sendAccessUnit(SyntheticMedia.video(i * 33L, i % 30 == 0, 5000 + i * 300));
            client.sendAccessUnit(SyntheticMedia.audio(i * 21L));
        }
        RtmpStats sent = client.stats().get(5, TimeUnit.SECONDS);
        client.unpublish();

        IngestRecorder.Stream stream = recorder.streams.get("loop");
        assertThat(stream.ended.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(stream.endReason).isEqualTo("FCUnpublish");
        assertThat(stream.query).isEqualTo("k=v");
        assertThat(stream.configs).containsExactly(SyntheticMedia.AVC, SyntheticMedia.AAC);
        List<AccessUnit> video = stream.track(TrackType.VIDEO);
        assertThat(video).hasSize(60);
        assertThat(video.get(59).data())
                .isEqualTo(
                        SyntheticMedia.video(59 * 33L, false, 5000 + 59 * 300).data());
        assertThat(stream.track(TrackType.AUDIO)).hasSize(60);
        assertThat(sent.videoFrames()).isEqualTo(60);
        assertThat(client.closed().get(10, TimeUnit.SECONDS).reason()).isEqualTo(CloseReason.LOCAL_CLOSE);
        assertThat(fixture.listener.connections()).isLessThanOrEqualTo(1);
    }

    @Test
    void aDecisionFromAnotherThreadLaterIsApplied() throws Exception {
        ScheduledExecutorService hook = Executors.newSingleThreadScheduledExecutor();
        IngestRecorder slow = new IngestRecorder() {
            @Override
            public void onPublishRequest(RtmpPublisher publisher, PublishReply reply) {
                // As an HTTP on_publish hook would answer: later, on its own thread.
                hook.schedule(() -> super.onPublishRequest(publisher, reply), 200, TimeUnit.MILLISECONDS);
            }
        };
        try (ListenerFixture slowListener = new ListenerFixture(1, RtmpListenerSettings.defaults(), slow)) {
            RtmpPushClient client = push(slowListener, "later");
            client.published().get(10, TimeUnit.SECONDS);
            client.sendConfig(SyntheticMedia.AAC, 0);
            client.unpublish();

            assertThat(slow.streams.get("later").ended.await(10, TimeUnit.SECONDS))
                    .isTrue();
            assertThat(slow.streams.get("later").configs).containsExactly(SyntheticMedia.AAC);
        } finally {
            hook.shutdownNow();
        }
    }

    @Test
    void aSecondPushOnALiveNameFailsWithTheServersReason() throws Exception {
        RtmpPushClient first = push("same");
        first.published().get(10, TimeUnit.SECONDS);

        RtmpPushClient second = push("same");
        CompletableFuture<Void> published = second.published();

        assertThatThrownBy(() -> published.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("NetStream.Publish.BadName (stream same is already live)");
        assertThat(second.closed().get(10, TimeUnit.SECONDS).reason()).isEqualTo(CloseReason.PUBLISH_REFUSED);
        first.sendConfig(SyntheticMedia.AAC, 0);
        first.unpublish();
        assertThat(recorder.streams.get("same").ended.await(10, TimeUnit.SECONDS))
                .isTrue();
        assertThat(recorder.streams.get("same").configs)
                .as("the first publisher was not disturbed")
                .hasSize(1);
    }

    @Test
    void mediaBeforeThePublishStartedIsDroppedAndCounted() throws Exception {
        RtmpPushClient client = push("early");
        client.sendAccessUnit(SyntheticMedia.audio(0)); // almost surely before the handshake is done
        client.published().get(10, TimeUnit.SECONDS);
        client.unpublish();
        client.closed().get(10, TimeUnit.SECONDS);

        assertThat(client.droppedMessages()).isEqualTo(1);
    }

    @Test
    void aPushToAPortWithNobodyFailsItsFutures() {
        RtmpPushClient client = RtmpPushClient.connect(
                fixture.group, URI.create("rtmp://127.0.0.1:1/live/x"), RtmpSettings.defaults(), HandshakeScheme.PLAIN);

        assertThatThrownBy(() -> client.published().get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
    }

    @Test
    void urlsWithoutAppAndStreamAreRejected() {
        for (String url : List.of("http://h/live/x", "rtmp://h/live", "rtmp://h/live/", "rtmp://h/")) {
            assertThatThrownBy(() -> RtmpPushClient.connect(
                            fixture.group, URI.create(url), RtmpSettings.defaults(), HandshakeScheme.PLAIN))
                    .as(url)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
