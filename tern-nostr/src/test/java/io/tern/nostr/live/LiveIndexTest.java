package io.tern.nostr.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.testing.Generators;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class LiveIndexTest {
    private static final long T = 1_700_000_000L;

    /** The index finds exactly the subscribers a test of every filter finds, each once. */
    @Property(tries = 200)
    void findsWhatAFullScanFinds(@ForAll long seed) {
        Random r = new Random(seed);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            events.add(Generators.event(r, T, events));
        }
        LiveIndex<Integer> index = new LiveIndex<>();
        List<List<Filter>> subscribers = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            List<Filter> filters = new ArrayList<>();
            for (int f = r.nextInt(3); f >= 0; f--) {
                filters.add(Generators.filter(r, T, events));
            }
            subscribers.add(filters);
            index.add(s, filters);
        }
        // remove some (removal moves entries within buckets), and re-add one
        index.remove(0);
        index.add(0, subscribers.get(0));
        Set<Integer> removed = new HashSet<>();
        for (int i = 5 + r.nextInt(15); i > 0; i--) {
            int s = r.nextInt(subscribers.size());
            index.remove(s);
            removed.add(s);
        }
        for (Event e : events) {
            List<Integer> found = new ArrayList<>();
            index.match(e, found);
            Set<Integer> expected = new HashSet<>();
            for (int s = 0; s < subscribers.size(); s++) {
                if (!removed.contains(s) && subscribers.get(s).stream().anyMatch(f -> f.matches(e))) {
                    expected.add(s);
                }
            }
            assertThat(found).doesNotHaveDuplicates();
            assertThat(new HashSet<>(found)).isEqualTo(expected);
        }
    }

    @Test
    void aSubscriberWithManyMatchingFiltersIsReportedOnce() {
        Event e = Generators.event(new Random(1), T, List.of());
        LiveIndex<String> index = new LiveIndex<>();
        index.add(
                "s",
                List.of(
                        Filter.any(),
                        Filter.any(),
                        new Filter(null, Set.of(e.pubkey()), null, List.of(), 0, Long.MAX_VALUE, -1)));
        List<String> out = new ArrayList<>();
        index.match(e, out);
        index.match(e, out);
        assertThat(out).containsExactly("s", "s");
        assertThat(index.filters()).isEqualTo(3);
        index.remove("s");
        assertThat(index.filters()).isZero();
        out.clear();
        index.match(e, out);
        assertThat(out).isEmpty();
    }
}
