package io.tern.nostr.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.filter.TagCondition;
import io.tern.nostr.testing.Keys;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rules every {@link StoreBackend} keeps, run against each implementation. */
abstract class StoreContractTest {
    static final long T = 1_700_000_000L;
    final Keys alice = Keys.fromSeed(1);
    final Keys bob = Keys.fromSeed(2);
    StoreBackend store;

    abstract StoreBackend open() throws Exception;

    @BeforeEach
    void setUp() throws Exception {
        store = open();
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    WriteOutcome write(Event e) {
        return store.writeBatch(List.of(e)).get(0);
    }

    List<String> query(Filter f, long now) {
        List<SerializedEvent> out = new ArrayList<>();
        try (Cursor c = store.openQuery(f, now)) {
            while (c.step(3, out) == 3) {
                // keep stepping
            }
        }
        return out.stream().map(SerializedEvent::id).toList();
    }

    List<String> query(Filter f) {
        return query(f, T);
    }

    long count(List<Filter> filters, long now) {
        long n = 0;
        try (Cursor c = store.openCount(filters, now)) {
            int rows;
            while ((rows = c.step(2, null)) > 0) {
                n += rows;
            }
        }
        return n;
    }

    static Filter kinds(int... kinds) {
        return new Filter(null, null, kinds, List.of(), 0, Long.MAX_VALUE, 1000);
    }

    static Filter all() {
        return Filter.any().withLimit(1000);
    }

    @Test
    void duplicatesAreDetectedAlsoWithinABatch() {
        Event e = alice.sign(T, 1, List.of(), "x");
        assertThat(store.writeBatch(List.of(e, e))).containsExactly(WriteOutcome.STORED, WriteOutcome.DUPLICATE);
        assertThat(write(e)).isEqualTo(WriteOutcome.DUPLICATE);
        assertThat(query(all())).containsExactly(e.id());
    }

    @Test
    void resultsAreNewestFirstTiesByLowestIdLimited() {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            events.add(alice.sign(T - i / 3, 1, List.of(), "e" + i));
        }
        store.writeBatch(events);
        List<String> expected =
                events.stream().sorted(MemoryEvents.NEWEST_FIRST).map(Event::id).toList();
        assertThat(query(all())).containsExactlyElementsOf(expected);
        assertThat(query(all().withLimit(4))).containsExactlyElementsOf(expected.subList(0, 4));
        assertThat(query(all().withLimit(0))).isEmpty();
    }

    @Test
    void everyFilterFieldSelects() {
        Event a = alice.sign(T, 1, List.of(List.of("t", "x"), List.of("e", "f".repeat(64), "second")), "a");
        Event b = bob.sign(T + 5, 7, List.of(List.of("t", "y"), List.of("x", "second")), "b");
        store.writeBatch(List.of(a, b));
        assertThat(query(new Filter(Set.of(a.id()), null, null, List.of(), 0, Long.MAX_VALUE, 10)))
                .containsExactly(a.id());
        assertThat(query(new Filter(null, Set.of(bob.pubkey()), null, List.of(), 0, Long.MAX_VALUE, 10)))
                .containsExactly(b.id());
        assertThat(query(kinds(1, 2))).containsExactly(a.id());
        assertThat(query(new Filter(
                        null, null, null, List.of(new TagCondition('t', Set.of("y", "z"))), 0, Long.MAX_VALUE, 10)))
                .containsExactly(b.id());
        assertThat(query(new Filter(
                        null,
                        null,
                        null,
                        List.of(new TagCondition('e', Set.of("f".repeat(64)))),
                        0,
                        Long.MAX_VALUE,
                        10)))
                .containsExactly(a.id());
        assertThat(query(new Filter(
                        null, null, null, List.of(new TagCondition('x', Set.of("second"))), 0, Long.MAX_VALUE, 10)))
                .containsExactly(b.id());
        assertThat(query(new Filter(null, null, null, List.of(), T + 5, T + 5, 10)))
                .containsExactly(b.id());
        assertThat(query(new Filter(null, null, null, List.of(), 0, T, 10))).containsExactly(a.id());
        assertThat(query(new Filter(Set.of(), null, null, List.of(), 0, Long.MAX_VALUE, 10)))
                .isEmpty();
        assertThat(query(new Filter(null, null, new int[0], List.of(), 0, Long.MAX_VALUE, 10)))
                .isEmpty();
        assertThat(query(new Filter(null, null, null, List.of(new TagCondition('t', Set.of())), 0, Long.MAX_VALUE, 10)))
                .isEmpty();
    }

    @Test
    void replaceableEventsKeepTheNewestThenTheLowestId() {
        Event old = alice.sign(T - 1, 0, List.of(), "old");
        Event a = alice.sign(T, 0, List.of(), "a");
        Event b = alice.sign(T, 0, List.of(), "b");
        Event low = a.id().compareTo(b.id()) < 0 ? a : b;
        Event high = low == a ? b : a;
        assertThat(write(old)).isEqualTo(WriteOutcome.STORED);
        assertThat(write(high)).isEqualTo(WriteOutcome.STORED);
        assertThat(write(old)).isEqualTo(WriteOutcome.SUPERSEDED);
        assertThat(write(low)).isEqualTo(WriteOutcome.STORED);
        assertThat(write(high)).isEqualTo(WriteOutcome.SUPERSEDED);
        assertThat(query(all())).containsExactly(low.id());
        assertThat(write(bob.sign(T - 1, 0, List.of(), "bob's own"))).isEqualTo(WriteOutcome.STORED);
        assertThat(query(all())).hasSize(2);
    }

    @Test
    void addressableEventsAreKeyedByD() {
        Event x = alice.sign(T, 30000, List.of(List.of("d", "x")), "");
        Event x2 = alice.sign(T + 1, 30000, List.of(List.of("d", "x")), "");
        Event none = alice.sign(T, 30000, List.of(), "");
        Event empty = alice.sign(T + 1, 30000, List.of(List.of("d", "")), "");
        assertThat(store.writeBatch(List.of(x, none, x2, empty)))
                .containsExactly(WriteOutcome.STORED, WriteOutcome.STORED, WriteOutcome.STORED, WriteOutcome.STORED);
        assertThat(query(all())).containsExactlyInAnyOrder(x2.id(), empty.id());
    }

    @Test
    void deletionByIdBySameAuthorOnlyAndItSticks() {
        Event note = alice.sign(T, 1, List.of(), "n");
        Event bobs = bob.sign(T, 1, List.of(), "b");
        store.writeBatch(List.of(note, bobs));
        Event deletion = alice.sign(T + 1, 5, List.of(List.of("e", note.id()), List.of("e", bobs.id())), "");
        assertThat(write(deletion)).isEqualTo(WriteOutcome.STORED);
        assertThat(query(kinds(1))).containsExactly(bobs.id());
        assertThat(write(note)).isEqualTo(WriteOutcome.DELETED);
        // a deletion that arrives before its event also holds
        Event later = alice.sign(T + 2, 1, List.of(), "later");
        write(alice.sign(T + 3, 5, List.of(List.of("e", later.id())), ""));
        assertThat(write(later)).isEqualTo(WriteOutcome.DELETED);
        // bob's is his, untouched
        assertThat(write(bobs)).isEqualTo(WriteOutcome.DUPLICATE);
    }

    @Test
    void deletionByAddressUpToItsCreatedAt() {
        Event v1 = alice.sign(T, 30023, List.of(List.of("d", "p")), "v1");
        write(v1);
        String address = "30023:" + alice.pubkey() + ":p";
        write(alice.sign(T + 10, 5, List.of(List.of("a", address)), ""));
        assertThat(query(kinds(30023))).isEmpty();
        assertThat(write(alice.sign(T + 10, 30023, List.of(List.of("d", "p")), "same second")))
                .isEqualTo(WriteOutcome.DELETED);
        Event v3 = alice.sign(T + 11, 30023, List.of(List.of("d", "p")), "after");
        assertThat(write(v3)).isEqualTo(WriteOutcome.STORED);
        // replaceable kinds use an empty d in their address
        Event profile = alice.sign(T, 0, List.of(), "{}");
        write(profile);
        write(alice.sign(T + 1, 5, List.of(List.of("a", "0:" + alice.pubkey() + ":")), ""));
        assertThat(query(kinds(0))).isEmpty();
        // someone else's address is not theirs to delete
        Event bobsPost = bob.sign(T, 30023, List.of(List.of("d", "p")), "");
        write(bobsPost);
        write(alice.sign(T + 20, 5, List.of(List.of("a", "30023:" + bob.pubkey() + ":p")), ""));
        assertThat(query(kinds(30023))).containsExactlyInAnyOrder(v3.id(), bobsPost.id());
    }

    @Test
    void deletionRequestsCannotBeDeleted() {
        Event d1 = alice.sign(T, 5, List.of(List.of("e", "f".repeat(64))), "");
        write(d1);
        write(alice.sign(T + 1, 5, List.of(List.of("e", d1.id())), ""));
        assertThat(query(kinds(5))).hasSize(2);
    }

    @Test
    void expiredEventsAreHiddenThenPurged() {
        Event soon = alice.sign(T, 1, List.of(List.of("expiration", Long.toString(T + 10))), "");
        Event forever = alice.sign(T, 1, List.of(), "");
        store.writeBatch(List.of(soon, forever));
        assertThat(query(all(), T + 9)).hasSize(2);
        assertThat(count(List.of(all()), T + 9)).isEqualTo(2);
        assertThat(query(all(), T + 10)).containsExactly(forever.id());
        assertThat(count(List.of(all()), T + 10)).isEqualTo(1);
        assertThat(store.purgeExpired(T + 9)).isZero();
        assertThat(store.purgeExpired(T + 10)).isEqualTo(1);
        assertThat(query(all(), 0)).containsExactly(forever.id());
        assertThat(write(soon)).isEqualTo(WriteOutcome.STORED);
    }

    @Test
    void countIsDistinctOverFiltersAndIgnoresLimits() {
        Event a = alice.sign(T, 1, List.of(), "a");
        Event b = bob.sign(T, 7, List.of(), "b");
        store.writeBatch(List.of(a, b));
        Filter byAlice = new Filter(null, Set.of(alice.pubkey()), null, List.of(), 0, Long.MAX_VALUE, 1);
        assertThat(count(List.of(byAlice, kinds(1, 7).withLimit(1)), T)).isEqualTo(2);
        assertThat(count(List.of(kinds(9)), T)).isZero();
    }

    @Test
    void theStoredJsonIsTheEventsWireForm() {
        Event e = alice.sign(T, 1, List.of(List.of("t", "é\n")), "\u0001\"");
        write(e);
        List<SerializedEvent> out = new ArrayList<>();
        try (Cursor c = store.openQuery(all(), T)) {
            c.step(10, out);
        }
        assertThat(out.get(0).json()).isEqualTo(e.json());
        assertThat(out.get(0).createdAt()).isEqualTo(T);
    }
}
