package io.tern.nostr.live;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.filter.TagCondition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * Finds the subscriptions a new event matches without testing every filter. Each filter is filed
 * under the values of its most selective field — ids, else authors, else its first tag condition,
 * else kinds — or, with none of those, in a short list tested for every event. An event then looks
 * up its own id, pubkey, one-letter tags and kind, and only the filters found there are tested in
 * full. Each filter is tested at most once per event and each subscriber reported at most once,
 * whatever the number of its filters that match.
 *
 * @param <S> the subscriber type
 */
public final class LiveIndex<S> {
    private final Map<String, Set<Entry<S>>> byId = new HashMap<>();
    private final Map<String, Set<Entry<S>>> byAuthor = new HashMap<>();

    @SuppressWarnings("unchecked")
    private final Map<String, Set<Entry<S>>>[] byTag = new Map[128];

    private final Int2ObjectHashMap<Set<Entry<S>>> byKind = new Int2ObjectHashMap<>();
    private final Set<Entry<S>> unindexed = new LinkedHashSet<>();
    private final Map<S, List<Entry<S>>> entriesOf = new HashMap<>();
    private long seq;
    private int filters;

    private static final class Entry<S> {
        final S subscriber;
        final Filter filter;
        final Marks marks;
        long testedSeq;

        Entry(S subscriber, Filter filter, Marks marks) {
            this.subscriber = subscriber;
            this.filter = filter;
            this.marks = marks;
        }
    }

    /** Shared by a subscriber's entries: the last event it was reported for. */
    private static final class Marks {
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
            forEachKey(e, true);
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
            forEachKey(e, false);
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

    private void test(Set<Entry<S>> entries, Event event, long s, List<S> out) {
        if (entries == null) {
            return;
        }
        for (Entry<S> e : entries) {
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

    private void forEachKey(Entry<S> e, boolean add) {
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
            Map<String, Set<Entry<S>>> m = byTag[t.letter()];
            if (m == null) {
                m = new HashMap<>();
                byTag[t.letter()] = m;
            }
            for (String v : t.values()) {
                file(m, v, e, add);
            }
        } else if (f.kinds() != null) {
            for (int k : f.kinds()) {
                Set<Entry<S>> set = byKind.get(k);
                if (add) {
                    if (set == null) {
                        set = new LinkedHashSet<>();
                        byKind.put(k, set);
                    }
                    set.add(e);
                } else if (set != null && set.remove(e) && set.isEmpty()) {
                    byKind.remove(k);
                }
            }
        } else if (add) {
            unindexed.add(e);
        } else {
            unindexed.remove(e);
        }
    }

    private static <S> void file(Map<String, Set<Entry<S>>> map, String key, Entry<S> e, boolean add) {
        if (add) {
            map.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(e);
        } else {
            Set<Entry<S>> set = map.get(key);
            if (set != null && set.remove(e) && set.isEmpty()) {
                map.remove(key);
            }
        }
    }
}
