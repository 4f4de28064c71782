package io.tern.rtmp.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.rtmp.MediaFixtures;
import io.tern.rtmp.session.RtmpEvent.Closed;
import io.tern.rtmp.session.RtmpEvent.Notice;
import io.tern.rtmp.session.RtmpEvent.PublishRequested;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** The whole server session under arbitrary and corrupted input: nothing escapes, everything is bounded. */
class SessionFuzzTest {
    @Property(tries = 1000)
    void arbitraryBytesFromTheStart(@ForAll byte[] input, @ForAll boolean validFirstByte) {
        RtmpServerSession server = new RtmpServerSession(RtmpSettings.defaults(), new SplittableRandom(1), 0);
        if (validFirstByte && input.length > 0) {
            input[0] = 3;
        }
        server.onBytes(ByteBuffer.wrap(input), 1);
        server.onPeerClosed(2);

        List<RtmpEvent> events = drain(server);
        assertThat(events.get(events.size() - 1)).isInstanceOf(Closed.class);
        assertThat(server.pendingWriteBytes()).isLessThanOrEqualTo(3073);
    }

    /** A corruption found by the property that made 296 drops, each once queued as a notice. */
    @Example
    void aCorruptionThatDropsHundredsOfMessagesQueuesAtMostTheNoticeCap() {
        corruptedPublisherStreams(-5105042L);
    }

    @Property(tries = 300)
    void corruptedPublisherStreams(@ForAll long seed) {
        Random random = new Random(seed);
        Link link = new Link(seed);
        link.pump();
        PublishRequested request = Link.first(link.serverEvents, PublishRequested.class);
        link.server.acceptPublish(request.messageStreamId(), link.nowNs);
        link.pump();
        link.client.sendConfig(MediaFixtures.avc(), 0);
        link.client.sendConfig(MediaFixtures.aac(), 0);
        for (int i = 0; i < 10; i++) {
            link.client.sendAccessUnit(MediaFixtures.video(i * 33L, 0, i == 0, 1 + random.nextInt(10_000)));
            link.client.sendAccessUnit(MediaFixtures.audio(i * 21L, 1 + random.nextInt(400)));
        }
        byte[][] bytes = new byte[1][];
        link.client.drainWrites((b, off, len) -> bytes[0] = Arrays.copyOfRange(b, off, off + len));
        int flips = 1 + random.nextInt(20);
        for (int i = 0; i < flips; i++) {
            bytes[0][random.nextInt(bytes[0].length)] = (byte) random.nextInt(256);
        }
        int cut = random.nextInt(bytes[0].length + 1);

        link.feed(link.server, Arrays.copyOf(bytes[0], cut));
        link.server.onTimeout(link.nowNs + random.nextInt(Integer.MAX_VALUE));
        link.server.onPeerClosed(link.nowNs + 1);
        link.drainEvents();

        List<RtmpEvent> events = link.serverEvents;
        assertThat(events.get(events.size() - 1)).isInstanceOf(Closed.class);
        assertThat(events.stream().filter(e -> e instanceof Closed).count()).isEqualTo(1);
        // Every dropped message is counted, but a corrupt stream cannot flood the event queue.
        assertThat(events.stream().filter(e -> e instanceof Notice).count())
                .isLessThanOrEqualTo(RtmpSession.MAX_NOTICES);
        assertThat(events.size()).isLessThan(RtmpSession.MAX_NOTICES + 32);
        assertThat(link.server.stats().bufferedBytes())
                .isLessThanOrEqualTo(RtmpSettings.defaults().maxBufferedBytes());
    }

    private static List<RtmpEvent> drain(RtmpSession session) {
        List<RtmpEvent> events = new ArrayList<>();
        for (RtmpEvent e; (e = session.pollEvent()) != null; ) {
            events.add(e);
        }
        return events;
    }
}
