package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.RelayHarness;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** NIP-01's kinds through the engine: replaceable, addressable, ephemeral (regular in EventFlowTest). */
class KindsTest {
    private final Keys alice = Keys.fromSeed(1);
    private RelayHarness relay;
    private long conn;
    private long now;

    @BeforeEach
    void setUp() {
        relay = RelayHarness.withDefaults();
        conn = relay.connect();
        relay.take(conn);
        now = relay.clock.epochSeconds();
    }

    private List<Object> publish(Event e) {
        relay.publish(conn, e);
        return relay.takeOne(conn);
    }

    private List<Object> storedIds(String filter) {
        relay.send(conn, "[\"REQ\",\"q\"," + filter + "]");
        List<List<Object>> messages = relay.takeParsed(conn);
        relay.send(conn, "[\"CLOSE\",\"q\"]");
        return messages.stream()
                .filter(m -> m.get(0).equals("EVENT"))
                .map(m -> (Object) ((Map<?, ?>) m.get(2)).get("id"))
                .toList();
    }

    @Test
    void aReplaceableEventKeepsOnlyTheNewest() {
        for (int kind : new int[] {0, 3, 10000, 19999}) {
            Event older = alice.sign(now - 10, kind, List.of(), "older");
            Event newer = alice.sign(now, kind, List.of(), "newer");
            assertThat(publish(older).get(2)).isEqualTo(true);
            assertThat(publish(newer)).containsExactly("OK", newer.id(), true, "");
            assertThat(storedIds("{\"kinds\":[" + kind + "]}")).containsExactly(newer.id());
            // the older one coming back is acknowledged but not stored
            Event older2 = alice.sign(now - 5, kind, List.of(), "older again");
            assertThat(publish(older2))
                    .containsExactly("OK", older2.id(), true, "duplicate: a newer version is stored");
            assertThat(storedIds("{\"kinds\":[" + kind + "]}")).containsExactly(newer.id());
        }
    }

    @Test
    void equalCreatedAtKeepsTheLowestId() {
        Event a = alice.sign(now, 0, List.of(), "a");
        Event b = alice.sign(now, 0, List.of(), "b");
        Event low = a.id().compareTo(b.id()) < 0 ? a : b;
        Event high = low == a ? b : a;
        publish(high);
        assertThat(publish(low).get(2)).isEqualTo(true);
        assertThat(storedIds("{\"kinds\":[0]}")).containsExactly(low.id());
        assertThat(publish(high)).containsExactly("OK", high.id(), true, "duplicate: a newer version is stored");
    }

    @Test
    void replaceableEventsAreKeyedByPubkeyAndKind() {
        Keys bob = Keys.fromSeed(2);
        Event a = alice.sign(now, 10002, List.of(), "");
        Event b = bob.sign(now, 10002, List.of(), "");
        Event otherKind = alice.sign(now, 10003, List.of(), "");
        publish(a);
        publish(b);
        publish(otherKind);
        assertThat(storedIds("{\"kinds\":[10002,10003]}")).containsExactlyInAnyOrder(a.id(), b.id(), otherKind.id());
    }

    @Test
    void addressableEventsAreKeyedByTheirDTag() {
        Event x1 = alice.sign(now - 1, 30023, List.of(List.of("d", "x")), "x1");
        Event x2 = alice.sign(now, 30023, List.of(List.of("d", "x")), "x2");
        Event y = alice.sign(now - 1, 30023, List.of(List.of("d", "y")), "y");
        Event missing = alice.sign(now - 1, 30023, List.of(), "no d");
        Event empty = alice.sign(now, 30023, List.of(List.of("d", "")), "empty d");
        for (Event e : List.of(x1, x2, y, missing, empty)) {
            assertThat(publish(e).get(2)).isEqualTo(true);
        }
        // x2 replaced x1; the empty d replaced the missing one (both are the key "")
        assertThat(storedIds("{\"kinds\":[30023]}")).containsExactlyInAnyOrder(x2.id(), y.id(), empty.id());
        assertThat(storedIds("{\"#d\":[\"x\"]}")).containsExactly(x2.id());
    }

    @Test
    void aReplacementReachesLiveSubscribers() {
        relay.send(conn, "[\"REQ\",\"live\",{\"kinds\":[0],\"limit\":0}]");
        relay.take(conn);
        Event v1 = alice.sign(now - 1, 0, List.of(), "v1");
        relay.publish(conn, v1);
        assertThat(relay.takeParsed(conn)).hasSize(2);
        Event stale = alice.sign(now - 2, 0, List.of(), "stale");
        relay.publish(conn, stale);
        // only the OK: a superseded event is not broadcast
        assertThat(relay.takeOne(conn).get(0)).isEqualTo("OK");
    }
}
