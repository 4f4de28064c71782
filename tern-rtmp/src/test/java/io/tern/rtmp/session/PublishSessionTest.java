package io.tern.rtmp.session;

import static io.tern.rtmp.session.Link.all;
import static io.tern.rtmp.session.Link.first;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.MediaFixtures;
import io.tern.rtmp.amf.Amf0Writer;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.amf.AmfValue.AmfNumber;
import io.tern.rtmp.amf.AmfValue.AmfObject;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.ChunkWriter;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.command.NetStatus;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpEvent.Closed;
import io.tern.rtmp.session.RtmpEvent.ConfigReceived;
import io.tern.rtmp.session.RtmpEvent.Connected;
import io.tern.rtmp.session.RtmpEvent.MediaReceived;
import io.tern.rtmp.session.RtmpEvent.MetadataReceived;
import io.tern.rtmp.session.RtmpEvent.Notice;
import io.tern.rtmp.session.RtmpEvent.PublishRequested;
import io.tern.rtmp.session.RtmpEvent.PublishStarted;
import io.tern.rtmp.session.RtmpEvent.TimestampDiscontinuity;
import io.tern.rtmp.session.RtmpEvent.Unpublished;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The server engine against the client engine, in memory. */
class PublishSessionTest {

    @Test
    void connectAndPublishAreAnsweredAsNginxRtmpAnswersThem() {
        Link link = new Link(1);
        link.pump();

        Connected connected = first(link.serverEvents, Connected.class);
        assertThat(connected.app()).isEqualTo("live");
        assertThat(connected.tcUrl()).isEqualTo("rtmp://127.0.0.1/live");
        PublishRequested request = first(link.serverEvents, PublishRequested.class);
        assertThat(request.streamName()).isEqualTo("cam");
        assertThat(request.query()).isEqualTo("token=abc");
        assertThat(request.publishType()).isEqualTo("live");
        assertThat(link.client.publishing()).as("not before the server accepts").isFalse();

        link.server.acceptPublish(request.messageStreamId(), link.nowNs);
        link.pump();

        assertThat(first(link.clientEvents, PublishStarted.class).streamName()).isEqualTo("cam?token=abc");
        assertThat(link.client.publishing()).isTrue();
        // Window, peer bandwidth and chunk size come before the connect result, as nginx-rtmp sends them.
        assertThat(link.toClient.types().subList(0, 4))
                .containsExactly(
                        MessageType.WINDOW_ACK_SIZE,
                        MessageType.SET_PEER_BANDWIDTH,
                        MessageType.SET_CHUNK_SIZE,
                        MessageType.COMMAND_AMF0);
        assertThat(link.toClient.commandNames())
                .containsExactly("_result", "_result", "_result", "_result", "onFCPublish", "onStatus");
        Tap.Message connectResult = link.toClient.messages.get(3);
        assertThat(connectResult.values().get(3)).isInstanceOfSatisfying(AmfObject.class, info -> {
            assertThat(info.string("code")).isEqualTo(NetStatus.CONNECT_SUCCESS);
            assertThat(info.string("level")).isEqualTo("status");
        });
        Tap.Message status = link.toClient.messages.get(link.toClient.messages.size() - 1);
        assertThat(status.streamId()).isEqualTo(request.messageStreamId());
        assertThat(((AmfObject) status.values().get(3)).string("code")).isEqualTo(NetStatus.PUBLISH_START);
        assertThat(link.toClient.types()).contains(MessageType.USER_CONTROL); // Stream Begin
        assertThat(link.toServer.commandNames())
                .containsExactly("connect", "releaseStream", "FCPublish", "createStream", "publish");
    }

    @ParameterizedTest
    @EnumSource(HandshakeScheme.class)
    void everyHandshakeSchemeWorksEndToEnd(HandshakeScheme scheme) {
        Link link = new Link(RtmpSettings.defaults(), RtmpSettings.defaults(), scheme, 2);
        link.publish();

        assertThat(link.server.clientHandshakeScheme()).isEqualTo(scheme);
        assertThat(link.client.serverHandshakeVerified()).isTrue();
    }

    @ParameterizedTest
    @CsvSource({"128, 128", "4096, 60000", "128, 1000000", "65536, 200"})
    void mediaArrivesUnchangedWithEveryChunkTypeAndChunkSizeChanges(int serverChunk, int clientChunk) {
        Link link = new Link(
                RtmpSettings.defaults().toBuilder()
                        .outgoingChunkSizeBytes(serverChunk)
                        .build(),
                RtmpSettings.defaults().toBuilder()
                        .outgoingChunkSizeBytes(clientChunk)
                        .build(),
                HandshakeScheme.DIGEST_OFFSET_8,
                3);
        link.publish();
        List<AccessUnit> sent = new ArrayList<>();
        link.client.sendMetadata(Map.of("width", new AmfNumber(1280), "framerate", new AmfNumber(30)));
        link.client.sendConfig(MediaFixtures.avc(), 0);
        link.client.sendConfig(MediaFixtures.aac(), 0);
        for (int i = 0; i < 90; i++) {
            if (i == 30) {
                link.client.setChunkSize(clientChunk == 128 ? 5000 : 128); // both ways, mid-stream
                link.server.setChunkSize(serverChunk == 128 ? 4096 : 128);
            }
            // Frames of varying size (type 1 headers, continuations), audio of fixed size and
            // spacing (type 2, then type 3 new messages), B-frame style composition offsets.
            AccessUnit video = MediaFixtures.video(i * 33L, i % 3 == 1 ? 66 : 0, i % 30 == 0, 200 + (i * 997) % 20_000);
            AccessUnit audio = MediaFixtures.audio(i * 23L, 300);
            assertThat(link.client.sendAccessUnit(video)).isTrue();
            assertThat(link.client.sendAccessUnit(audio)).isTrue();
            sent.add(video);
            sent.add(audio);
            if (i % 7 == 0) {
                link.pump();
            }
        }
        link.pump();

        assertThat(all(link.serverEvents, Notice.class)).isEmpty();
        assertThat(all(link.serverEvents, TimestampDiscontinuity.class)).isEmpty();
        assertThat(first(link.serverEvents, MetadataReceived.class).properties())
                .containsEntry("width", new AmfNumber(1280));
        assertThat(all(link.serverEvents, ConfigReceived.class))
                .extracting(ConfigReceived::config)
                .containsExactly(MediaFixtures.avc(), MediaFixtures.aac());
        List<AccessUnit> received = all(link.serverEvents, MediaReceived.class).stream()
                .map(MediaReceived::unit)
                .toList();
        assertThat(received).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            AccessUnit s = sent.get(i);
            AccessUnit r = received.get(i);
            assertThat(r.track()).isEqualTo(s.track());
            assertThat(r.dts()).isEqualTo(s.dts());
            assertThat(r.pts()).isEqualTo(s.pts());
            assertThat(r.keyframe()).isEqualTo(s.keyframe());
            assertThat(r.data()).isEqualTo(s.data());
        }
        RtmpStats stats = link.server.stats();
        for (int type = 0; type < 4; type++) {
            assertThat(stats.chunksIn(type)).as("chunks of type %d", type).isPositive();
        }
        assertThat(stats.videoFrames()).isEqualTo(90);
        assertThat(stats.keyframes()).isEqualTo(3);
        assertThat(stats.audioFrames()).isEqualTo(90);
        assertThat(link.client.stats().chunksIn(3))
                .as("the server's answers to a 128-byte chunk size span chunks")
                .isGreaterThanOrEqualTo(serverChunk == 128 ? 1 : 0);
    }

    @Property(tries = 30)
    void anyFrameSizesAndChunkSizesArriveIntact(
            @ForAll long seed, @ForAll @IntRange(min = 128, max = 70_000) int clientChunk) {
        Link link = new Link(
                RtmpSettings.defaults(),
                RtmpSettings.defaults().toBuilder()
                        .outgoingChunkSizeBytes(clientChunk)
                        .build(),
                HandshakeScheme.DIGEST_OFFSET_772,
                seed);
        link.publish();
        link.client.sendConfig(MediaFixtures.avc(), 0);
        Random random = new Random(seed);
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int size = 1 + random.nextInt(random.nextBoolean() ? 100 : 300_000);
            sizes.add(size + 4);
            link.client.sendAccessUnit(MediaFixtures.video(i * 40L, 0, i == 0, size));
        }
        link.pump();

        assertThat(all(link.serverEvents, MediaReceived.class))
                .extracting(m -> m.unit().sizeBytes())
                .isEqualTo(sizes);
    }

    @Test
    void theServerAcknowledgesEveryWindowTheClientAsks() {
        Link link = new Link(
                RtmpSettings.defaults().toBuilder()
                        .windowAckSizeBytes(200)
                        .maxUnacknowledgedBytes(1000)
                        .build(),
                RtmpSettings.defaults().toBuilder()
                        .windowAckSizeBytes(10_000)
                        .maxUnacknowledgedBytes(50_000)
                        .build(),
                HandshakeScheme.DIGEST_OFFSET_8,
                4);
        link.publish();
        link.client.sendConfig(MediaFixtures.aac(), 0);
        for (int i = 0; i < 100; i++) {
            link.client.sendAccessUnit(MediaFixtures.audio(i * 21L, 1000));
            link.pump();
        }

        long sentBytes = 100 * 1000;
        assertThat(link.server.stats().acknowledgementsSent())
                .isBetween(sentBytes / 10_000 - 1, sentBytes / 10_000 + 2);
        assertThat(link.client.stats().acknowledgementsReceived())
                .isEqualTo(link.server.stats().acknowledgementsSent());
        assertThat(link.client.unacknowledgedBytes()).isLessThan(10_000 + 1100);
        assertThat(link.server.stats().acknowledgementsReceived())
                .as("the client acknowledges the server's 200-byte window too")
                .isPositive();
    }

    @Test
    void aClientStopsSendingWhileTooMuchIsUnacknowledged() {
        Link link = new Link(
                RtmpSettings.defaults(),
                RtmpSettings.defaults().toBuilder()
                        .windowAckSizeBytes(10_000)
                        .maxUnacknowledgedBytes(50_000)
                        .build(),
                HandshakeScheme.DIGEST_OFFSET_8,
                5);
        link.publish();
        link.client.sendConfig(MediaFixtures.aac(), 0);
        for (int i = 0; i < 30; i++) {
            link.client.sendAccessUnit(MediaFixtures.audio(i * 21L, 1000));
        }
        link.pump();
        assertThat(link.client.stats().acknowledgementsReceived()).isPositive();

        link.holdClientBytes = true;
        int accepted = 0;
        while (link.client.sendAccessUnit(MediaFixtures.audio(1000 + accepted * 21L, 1000)) && accepted < 1000) {
            accepted++;
            link.pump();
        }

        assertThat(accepted)
                .as("refused once 50 000 bytes wait for an acknowledgement")
                .isBetween(40, 60);
        assertThat(link.client.unacknowledgedBytes()).isLessThanOrEqualTo(50_000 + 1100);
        link.holdClientBytes = false;
        link.releaseHeldBytes();
        link.pump();
        assertThat(link.client.canSend()).isTrue();
    }

    @Test
    void aPingRequestIsAnsweredWithItsTimestamp() {
        Link link = new Link(6);
        link.publish();
        byte[] ping = {0, 6, 0x12, 0x34, 0x56, 0x78};
        link.feed(link.server, rawChunk(MessageType.USER_CONTROL, 0, ping));
        link.pump();

        Tap.Message response = link.toClient.messages.get(link.toClient.messages.size() - 1);
        assertThat(response.typeId()).isEqualTo(MessageType.USER_CONTROL);
        assertThat(response.payload()).containsExactly(0, 7, 0x12, 0x34, 0x56, 0x78);
    }

    @Test
    void anUnknownCommandGetsAnErrorAndTheSessionGoesOn() {
        Link link = new Link(7);
        link.publish();
        link.feed(link.server, rawChunk(MessageType.COMMAND_AMF0, 0, command("getEverything", 9)));
        link.pump();

        Tap.Message error = link.toClient.messages.get(link.toClient.messages.size() - 1);
        assertThat(error.commandName()).isEqualTo("_error");
        assertThat(error.values().get(1)).isEqualTo(new AmfNumber(9));
        assertThat(((AmfObject) error.values().get(3)).string("code")).isEqualTo(NetStatus.CALL_FAILED);
        assertThat(first(link.serverEvents, Notice.class).detail())
                .isEqualTo("unknown command 'getEverything' ignored");
        link.client.sendConfig(MediaFixtures.aac(), 0);
        link.pump();
        assertThat(first(link.serverEvents, ConfigReceived.class)).isNotNull();
        assertThat(link.server.isClosed()).isFalse();
    }

    @Test
    void aRefusedPublishReachesTheClientAsBadName() {
        Link link = new Link(8);
        link.pump();
        PublishRequested request = first(link.serverEvents, PublishRequested.class);

        link.server.refusePublish(request.messageStreamId(), "cam is already publishing", link.nowNs);
        link.pump();

        RtmpEvent.PublishRefused refused = first(link.clientEvents, RtmpEvent.PublishRefused.class);
        assertThat(refused.code()).isEqualTo(NetStatus.PUBLISH_BAD_NAME);
        assertThat(refused.description()).isEqualTo("cam is already publishing");
        assertThat(link.client.closeReason()).isEqualTo(CloseReason.PUBLISH_REFUSED);
        Closed closed = first(link.serverEvents, Closed.class);
        assertThat(closed.reason()).isEqualTo(CloseReason.PUBLISH_REFUSED);
        assertThat(closed.detail()).isEqualTo("publish of 'cam' refused: cam is already publishing");
        assertThat(link.server.acceptPublish(request.messageStreamId(), link.nowNs))
                .as("a late decision does nothing")
                .isFalse();
        assertThat(all(link.serverEvents, Unpublished.class)).isEmpty();
    }

    @Test
    void anUnansweredPublishIsRefusedAtTheDecisionTimeout() {
        Link link = new Link(9);
        link.pump();
        assertThat(link.server.nextDeadlineNs())
                .isEqualTo(link.nowNs + RtmpSettings.defaults().decisionTimeoutNs());

        link.advance(RtmpSettings.defaults().decisionTimeoutNs());

        assertThat(first(link.clientEvents, RtmpEvent.PublishRefused.class).description())
                .isEqualTo("no publish decision within 10000 ms");
        assertThat(link.server.closeReason()).isEqualTo(CloseReason.PUBLISH_REFUSED);
    }

    @Test
    void timestampsThatGoBackOrJumpAreReportedInOrder() {
        Link link = new Link(10);
        link.publish();
        link.client.sendConfig(MediaFixtures.aac(), 0);
        for (long ts : new long[] {0, 21, 42, 10, 31, 40_000, 40_021}) {
            link.client.sendAccessUnit(MediaFixtures.audio(ts, 10));
        }
        link.pump();

        List<RtmpEvent> events = link.serverEvents.stream()
                .filter(e -> e instanceof TimestampDiscontinuity || e instanceof MediaReceived)
                .toList();
        assertThat(events.get(3))
                .isEqualTo(new TimestampDiscontinuity(
                        TrackType.AUDIO, 42 * 90, 10 * 90, TimestampDiscontinuity.Kind.BACKWARDS));
        assertThat(((MediaReceived) events.get(4)).unit().dts()).isEqualTo(10 * 90);
        assertThat(events.get(6))
                .isEqualTo(new TimestampDiscontinuity(
                        TrackType.AUDIO, 31 * 90, 40_000 * 90, TimestampDiscontinuity.Kind.JUMP));
        assertThat(link.server.stats().discontinuities()).isEqualTo(2);
    }

    @ParameterizedTest
    @CsvSource({"16777173", "4294967253"}) // across 0xFFFFFF (extended timestamps) and across 2^32 (the wrap)
    void timestampsPastTheExtendedFieldAndPastTheWrapArriveUnchanged(long firstMs) {
        Link link = new Link(17);
        link.publish();
        link.client.sendConfig(MediaFixtures.aac(), 0);
        List<Long> sentMs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sentMs.add(firstMs + i * 21L);
        }
        sentMs.forEach(ms -> link.client.sendAccessUnit(MediaFixtures.audio(ms, 40)));
        link.pump();

        assertThat(all(link.serverEvents, MediaReceived.class))
                .extracting(m -> m.unit().dts() / 90)
                .isEqualTo(sentMs);
        assertThat(all(link.serverEvents, TimestampDiscontinuity.class)).isEmpty();
    }

    @Test
    void unpublishingEndsThePublishAndThenTheConnection() {
        Link link = new Link(11);
        link.publish();

        link.client.unpublish(link.nowNs);
        link.pump();

        assertThat(first(link.serverEvents, Unpublished.class)).isEqualTo(new Unpublished("cam", "FCUnpublish"));
        assertThat(link.server.isClosed()).isFalse();
        assertThat(link.toServer.commandNames()).endsWith("FCUnpublish", "deleteStream");
        link.server.onPeerClosed(link.nowNs);
        link.drainEvents();
        assertThat(first(link.serverEvents, Closed.class))
                .isEqualTo(new Closed(CloseReason.PEER_CLOSED, "peer closed"));
        assertThat(all(link.serverEvents, Unpublished.class)).hasSize(1);
    }

    @Test
    void aPublisherVanishingMidMessageEndsThePublishWithThatReason() {
        Link link = new Link(12);
        link.publish();
        link.client.sendConfig(MediaFixtures.avc(), 0);
        link.pump();
        link.client.sendAccessUnit(MediaFixtures.video(0, 0, true, 50_000));
        byte[][] bytes = new byte[1][];
        link.client.drainWrites((b, off, len) -> bytes[0] = Arrays.copyOfRange(b, off, off + len / 2));
        link.feed(link.server, bytes[0]);

        link.server.onPeerClosed(link.nowNs);
        link.drainEvents();

        assertThat(all(link.serverEvents, MediaReceived.class)).isEmpty();
        assertThat(first(link.serverEvents, Unpublished.class).reason())
                .isEqualTo("peer closed in the middle of a message");
        assertThat(first(link.serverEvents, Closed.class))
                .isEqualTo(new Closed(CloseReason.PEER_CLOSED, "peer closed in the middle of a message"));
        assertThat(link.server.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aSilentPublisherTimesOut() {
        Link link = new Link(13);
        link.publish();
        long idle = RtmpSettings.defaults().idleTimeoutNs();
        assertThat(link.server.nextDeadlineNs()).isEqualTo(link.nowNs + idle);

        link.advance(idle - 1);
        assertThat(link.server.isClosed()).isFalse();
        link.advance(1);

        assertThat(first(link.serverEvents, Closed.class))
                .isEqualTo(new Closed(CloseReason.IDLE_TIMEOUT, "no media for 20000 ms"));
        assertThat(first(link.serverEvents, Unpublished.class).reason()).isEqualTo("no media for 20000 ms");
    }

    @Test
    void aPublisherTricklingOneMessageTimesOutToo() {
        Link link = new Link(14);
        link.publish();
        link.client.sendConfig(MediaFixtures.avc(), 0);
        link.pump();
        link.client.sendAccessUnit(MediaFixtures.video(0, 0, true, 4000));
        byte[][] bytes = new byte[1][];
        link.client.drainWrites((b, off, len) -> bytes[0] = Arrays.copyOfRange(b, off, off + len));
        for (int i = 0; i < 25; i++) {
            link.nowNs += 1_000_000_000L;
            link.server.onBytes(ByteBuffer.wrap(bytes[0], i, 1), link.nowNs);
            link.server.onTimeout(link.nowNs);
        }
        link.drainEvents();

        assertThat(link.server.closeReason()).isEqualTo(CloseReason.IDLE_TIMEOUT);
    }

    @Test
    void aggregateMessagesAreSplitIntoTheirTags() {
        Link link = new Link(15);
        link.publish();
        link.client.sendConfig(MediaFixtures.aac(), 0);
        link.pump();
        ByteWriter aggregate = new ByteWriter(64);
        for (int i = 0; i < 3; i++) {
            byte[] body = MediaFixtures.aacFrameTag(new byte[] {(byte) i, 1, 2});
            aggregate
                    .u8(MessageType.AUDIO)
                    .u24(body.length)
                    .u24(500 + i * 21)
                    .u8(0)
                    .u24(0)
                    .bytes(body)
                    .u32(11 + body.length);
        }
        link.feed(
                link.server,
                rawChunk(MessageType.AGGREGATE, 1, Arrays.copyOf(aggregate.array(), aggregate.length()), 7000));
        link.drainEvents();

        assertThat(all(link.serverEvents, MediaReceived.class))
                .extracting(m -> m.unit().dts())
                .containsExactly(7000L * 90, 7021L * 90, 7042L * 90);
    }

    @Test
    void enhancedRtmpIsRefusedWithAClearStatus() {
        Link link = new Link(16);
        link.publish();
        byte[] hevc = MediaFixtures.concat(new byte[] {(byte) 0x90}, "hvc1".getBytes());
        link.client.sendTag(MessageType.VIDEO, 0, hevc, 0, hevc.length);
        link.pump();

        Closed closed = first(link.serverEvents, Closed.class);
        assertThat(closed.reason()).isEqualTo(CloseReason.UNSUPPORTED_CODEC);
        assertThat(closed.detail()).contains("Enhanced RTMP video (FourCC 'hvc1') is not supported");
        RtmpEvent.PublishRefused refused = first(link.clientEvents, RtmpEvent.PublishRefused.class);
        assertThat(refused.code()).isEqualTo(NetStatus.PUBLISH_REJECTED);
        assertThat(refused.description()).isEqualTo(closed.detail());
        assertThat(first(link.serverEvents, Unpublished.class).streamName()).isEqualTo("cam");
    }

    /** A chunk on a fresh chunk stream (type 0 header), small enough for the client's chunk size. */
    private static byte[] rawChunk(int typeId, int streamId, byte[] payload) {
        return rawChunk(typeId, streamId, payload, 0);
    }

    private static byte[] rawChunk(int typeId, int streamId, byte[] payload, long timestamp) {
        ChunkWriter writer = new ChunkWriter();
        writer.setChunkSize(4096);
        ByteWriter out = new ByteWriter(payload.length + 32);
        writer.write(out, 40, typeId, streamId, timestamp, payload, 0, payload.length);
        return Arrays.copyOf(out.array(), out.length());
    }

    private static byte[] command(String name, double tid) {
        ByteWriter body = new ByteWriter(64);
        Amf0Writer.string(body, name);
        Amf0Writer.number(body, tid);
        Amf0Writer.write(body, AmfValue.AmfNull.NULL);
        return Arrays.copyOf(body.array(), body.length());
    }
}
