package io.tern.netty.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.websocket.WebSocketClient;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter's side of the fleet seam over real sockets: two relays, each with its own SQLite
 * file, joined by an in-memory stand-in for the bus ({@link NostrRelay#publishTo} of one into
 * {@link NostrRelay#onPeerEvent} of the other). The PostgreSQL bus plugs in at the same two calls.
 */
@Timeout(60)
class PeerRelayTest {
    private static final Keys ALICE = Keys.fromSeed(1);

    @TempDir
    Path dir;

    private final WebSocketClient client = new WebSocketClient(1, WebSocketConfig.defaults());
    private NostrServer a;
    private NostrServer b;

    @AfterEach
    void stop() {
        client.close();
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    private NostrServer start(String name) throws Exception {
        NostrConfig config = NostrConfig.defaults();
        return NostrServer.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                1,
                config,
                NostrRelayTest.sqlite(dir.resolve(name + ".db"), config),
                Keys.secp(),
                () -> System.currentTimeMillis() / 1000,
                "test");
    }

    private static URI uri(NostrServer server) {
        return URI.create("ws://127.0.0.1:" + server.port() + "/");
    }

    @Test
    void anEphemeralEventAcceptedOnOneNodeReachesTheOthersSubscriberOnceAndIsStoredNowhere() throws Exception {
        a = start("a");
        b = start("b");
        a.relay().publishTo(b.relay()::onPeerEvent);
        b.relay().publishTo(a.relay()::onPeerEvent);
        try (NostrClient publisher = new NostrClient(client, uri(a));
                NostrClient onB = new NostrClient(client, uri(b))) {
            onB.send("[\"REQ\",\"rv\",{\"kinds\":[25050],\"limit\":0}]");
            assertThat(onB.next()).isEqualTo("[\"EOSE\",\"rv\"]");

            Event offer = ALICE.sign(System.currentTimeMillis() / 1000, 25050, List.of(), "offer");
            publisher.send(Keys.eventMessage(offer));
            assertThat(publisher.next()).isEqualTo("[\"OK\",\"" + offer.id() + "\",true,\"\"]");
            assertThat(onB.next()).isEqualTo("[\"EVENT\",\"rv\"," + NostrRelayTest.json(offer) + "]");

            // The same event handed in again (the bus delivering twice) is not delivered again.
            b.relay().onPeerEvent(offer);
            onB.send("[\"REQ\",\"fence\",{\"limit\":0}]");
            assertThat(onB.next()).as("nothing before the fence").isEqualTo("[\"EOSE\",\"fence\"]");
            assertThat(onB.received.poll(0, TimeUnit.MILLISECONDS)).isNull();
        }
        assertThat(b.relay().counters().peerEvents()).isEqualTo(2);
        assertThat(b.relay().counters().broadcastsSuppressed()).isEqualTo(1);
        assertThat(a.relay().counters().eventsStored()).isZero();
        assertThat(b.relay().counters().eventsStored()).isZero();
    }

    @Test
    void aStoredEventArrivingAsWireJsonReachesALiveSubscriberWithoutBeingStoredAgain() throws Exception {
        b = start("b");
        try (NostrClient onB = new NostrClient(client, uri(b))) {
            onB.send("[\"REQ\",\"notes\",{\"kinds\":[1],\"limit\":0}]");
            assertThat(onB.next()).isEqualTo("[\"EOSE\",\"notes\"]");
            Event note = ALICE.sign(System.currentTimeMillis() / 1000, 1, List.of(), "stored on A");
            b.relay().onPeerEventJson(note.json());
            b.relay().onPeerEventJson("{\"not\":\"an event\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(onB.next()).isEqualTo("[\"EVENT\",\"notes\"," + NostrRelayTest.json(note) + "]");
        }
        assertThat(b.relay().counters().peerEvents()).isEqualTo(1);
        assertThat(b.relay().counters().eventsStored()).isZero();
    }
}
