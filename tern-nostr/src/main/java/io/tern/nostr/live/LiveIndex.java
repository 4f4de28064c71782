package io.tern.nostr.live;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.filter.TagCondition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * Finds the subscriptions a new event matches without testing every filter. Each filter is filed
 * under the values of its most selective field — ids, else authors, else its first tag condition,
 * else kinds — or, with none of those, in a short list tested for every event. An event then looks
 * up its own id, pubkey, one-letter tags and kind, and only the filters found there are tested in
 * full. Each filter is tested at most once per event and each subscriber reported at most once,
 * whatever the number of its filters that match. Single-threaded.
 *
 * @param <S> the subscriber type
 */
public final class LiveIndex<S> {
    private final Map<String, Bucket<S>> byId = new HashMap<>();
    private final Map<String, Bucket<S>> byAuthor = new HashMap<>();
    /** By tag letter (a–z, A–Z), then by the tag's first value. */
    @SuppressWarnings("unchecked")
    private final Map<String, Bucket<S>>[] byTag = new Map[128];

    private final Int2ObjectHashMap<Bucket<S>> byKind = new Int2ObjectHashMap<>();
    private final Bucket<S> unindexed = new Bucket<>();
    private final Map<S, List<Entry<S>>> entriesOf = new HashMap<>();
    private long seq;
    private int filters;

    /** One filter of one subscriber, filed in one or more buckets. */
    static final class Entry<S> {
        final S subscriber;
        final Filter filter;
        final Marks marks;
        long testedSeq;
        private Bucket<?>[] buckets = new Bucket<?>[1];
        private int[] slots = new int[1];
        private int bucketCount;

        Entry(S subscriber, Filter filter, Marks marks) {
            this.subscriber = subscriber;
            this.filter = filter;
            this.marks = marks;
        }

        int slotIn(Bucket<?> b) {
            for (int i = 0; i < bucketCount; i++) {
                if (buckets[i] == b) {
                    return slots[i];
                }
            }
            throw new IllegalStateException("entry not in bucket");
        }

        void slotIn(Bucket<?> b, int slot) {
            for (int i = 0; i < bucketCount; i++) {
                if (buckets[i] == b) {
                    slots[i] = slot;
                    return;
                }
            }
            if (bucketCount == buckets.length) {
                buckets = java.util.Arrays.copyOf(buckets, bucketCount * 2);
                slots = java.util.Arrays.copyOf(slots, bucketCount * 2);
            }
            buckets[bucketCount] = b;
            slots[bucketCount] = slot;
            bucketCount++;
        }
    }

    /** Shared by a subscriber's entries: the last event it was reported for. */
    static final class Marks {
        long reportedSeq;
    }

    /** Adds a subscriber's filters; filters that can match nothing are left out. */
    public void add(S subscriber, List<Filter> subscriberFilters) {
        Marks marks = new Marks();
        List<Entry<S>> entries = new ArrayList<>(subscriberFilters.size());
        for (Filter f : subscriberFilters) {
            if (f.isEmpty()) {
                continue;
            }
            Entry<S> e = new Entry<>(subscriber, f, marks);
            entries.add(e);
            file(e, true);
            filters++;
        }
        if (entriesOf.put(subscriber, entries) != null) {
            throw new IllegalStateException("subscriber already indexed");
        }
    }

    public void remove(S subscriber) {
        List<Entry<S>> entries = entriesOf.remove(subscriber);
        if (entries == null) {
            return;
        }
        for (Entry<S> e : entries) {
            file(e, false);
            filters--;
        }
    }

    /** Filters indexed (for tests and metrics). */
    public int filters() {
        return filters;
    }

    /** Appends to {@code out} each subscriber with a filter matching {@code event}, once. */
    public void match(Event event, List<S> out) {
        long s = ++seq;
        test(byId.get(event.id()), event, s, out);
        test(byAuthor.get(event.pubkey()), event, s, out);
        List<List<String>> tags = event.tags();
        for (int i = 0; i < tags.size(); i++) {
            List<String> tag = tags.get(i);
            if (tag.size() >= 2 && tag.get(0).length() == 1) {
                char letter = tag.get(0).charAt(0);
                if (letter < 128 && byTag[letter] != null) {
                    test(byTag[letter].get(tag.get(1)), event, s, out);
                }
            }
        }
        test(byKind.get(event.kind()), event, s, out);
        test(unindexed, event, s, out);
    }

    private void test(Bucket<S> bucket, Event event, long s, List<S> out) {
        if (bucket == null) {
            return;
        }
        for (int i = 0, n = bucket.size(); i < n; i++) {
            Entry<S> e = bucket.get(i);
            if (e.testedSeq == s || e.marks.reportedSeq == s) {
                continue;
            }
            e.testedSeq = s;
            if (e.filter.matches(event)) {
                e.marks.reportedSeq = s;
                out.add(e.subscriber);
            }
        }
    }

    private void file(Entry<S> e, boolean add) {
        Filter f = e.filter;
        if (f.ids() != null) {
            for (String id : f.ids()) {
                file(byId, id, e, add);
            }
        } else if (f.authors() != null) {
            for (String author : f.authors()) {
                file(byAuthor, author, e, add);
            }
        } else if (!f.tags().isEmpty()) {
            TagCondition t = f.tags().get(0);
            Map<String, Bucket<S>> m = byTag[t.letter()];
            if (m == null) {
                m = new HashMap<>();
                byTag[t.letter()] = m;
            }
            for (String v : t.values()) {
                file(m, v, e, add);
            }
        } else if (f.kinds() != null) {
            for (int k : f.kinds()) {
                Bucket<S> b = byKind.get(k);
                if (add) {
                    if (b == null) {
                        b = new Bucket<>();
                        byKind.put(k, b);
                    }
                    b.add(e);
                } else if (b != null) {
                    b.remove(e);
                    if (b.size() == 0) {
                        byKind.remove(k);
                    }
                }
            }
        } else if (add) {
            unindexed.add(e);
        } else {
            unindexed.remove(e);
        }
    }

    private static <S> void file(Map<String, Bucket<S>> map, String key, Entry<S> e, boolean add) {
        if (add) {
            map.computeIfAbsent(key, k -> new Bucket<>()).add(e);
        } else {
            Bucket<S> b = map.get(key);
            if (b != null) {
                b.remove(e);
                if (b.size() == 0) {
                    map.remove(key);
                }
            }
        }
    }
}
