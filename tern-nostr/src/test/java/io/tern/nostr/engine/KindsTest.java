package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NIP-01's kinds through the engine: replaceable, addressable, ephemeral (regular in EventFlowTest). */
class KindsTest extends ClientFixture {
    @Test
    void aReplaceableEventKeepsOnlyTheNewest() {
        for (int kind : new int[] {0, 3, 10000, 19999}) {
            Event older = alice.sign(now - 10, kind, List.of(), "older");
            Event newer = alice.sign(now, kind, List.of(), "newer");
            assertThat(relay.publishOk(conn, older).get(2)).isEqualTo(true);
            assertThat(relay.publishOk(conn, newer)).containsExactly("OK", newer.id(), true, "");
            assertThat(relay.storedIds(conn, "{\"kinds\":[" + kind + "]}")).containsExactly(newer.id());
            // the older one coming back is acknowledged but not stored
            Event older2 = alice.sign(now - 5, kind, List.of(), "older again");
            assertThat(relay.publishOk(conn, older2))
                    .containsExactly("OK", older2.id(), true, "duplicate: a newer version is stored");
            assertThat(relay.storedIds(conn, "{\"kinds\":[" + kind + "]}")).containsExactly(newer.id());
        }
    }

    @Test
    void equalCreatedAtKeepsTheLowestId() {
        Event a = alice.sign(now, 0, List.of(), "a");
        Event b = alice.sign(now, 0, List.of(), "b");
        Event low = a.id().compareTo(b.id()) < 0 ? a : b;
        Event high = low == a ? b : a;
        relay.publishOk(conn, high);
        assertThat(relay.publishOk(conn, low).get(2)).isEqualTo(true);
        assertThat(relay.storedIds(conn, "{\"kinds\":[0]}")).containsExactly(low.id());
        assertThat(relay.publishOk(conn, high))
                .containsExactly("OK", high.id(), true, "duplicate: a newer version is stored");
    }

    @Test
    void replaceableEventsAreKeyedByPubkeyAndKind() {
        Keys bob = Keys.fromSeed(2);
        Event a = alice.sign(now, 10002, List.of(), "");
        Event b = bob.sign(now, 10002, List.of(), "");
        Event otherKind = alice.sign(now, 10003, List.of(), "");
        relay.publishOk(conn, a);
        relay.publishOk(conn, b);
        relay.publishOk(conn, otherKind);
        assertThat(relay.storedIds(conn, "{\"kinds\":[10002,10003]}"))
                .containsExactlyInAnyOrder(a.id(), b.id(), otherKind.id());
    }

    @Test
    void addressableEventsAreKeyedByTheirDTag() {
        Event x1 = alice.sign(now - 1, 30023, List.of(List.of("d", "x")), "x1");
        Event x2 = alice.sign(now, 30023, List.of(List.of("d", "x")), "x2");
        Event y = alice.sign(now - 1, 30023, List.of(List.of("d", "y")), "y");
        Event missing = alice.sign(now - 1, 30023, List.of(), "no d");
        Event empty = alice.sign(now, 30023, List.of(List.of("d", "")), "empty d");
        for (Event e : List.of(x1, x2, y, missing, empty)) {
            assertThat(relay.publishOk(conn, e).get(2)).isEqualTo(true);
        }
        // x2 replaced x1; the empty d replaced the missing one (both are the key "")
        assertThat(relay.storedIds(conn, "{\"kinds\":[30023]}")).containsExactlyInAnyOrder(x2.id(), y.id(), empty.id());
        assertThat(relay.storedIds(conn, "{\"#d\":[\"x\"]}")).containsExactly(x2.id());
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
