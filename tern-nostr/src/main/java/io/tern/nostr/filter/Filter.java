package io.tern.nostr.filter;

import io.tern.nostr.event.Event;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A NIP-01 filter. Each present field must match (AND); within a field any value may (OR). A
 * present but empty list matches nothing. {@code since} and {@code until} are inclusive.
 * {@code limit} is not a matching condition: it bounds a query's stored results.
 */
public final class Filter {
    /** {@link #limit()} when the filter has none. */
    public static final int NO_LIMIT = -1;

    private final Set<String> ids;
    private final Set<String> authors;
    private final int[] kinds;
    private final List<TagCondition> tags;
    private final long since;
    private final long until;
    private final int limit;

    /**
     * @param ids lowercase hex ids, or null for any
     * @param authors lowercase hex pubkeys, or null for any
     * @param kinds kinds, or null for any
     * @param tags tag conditions (at most one per letter), never null
     * @param since inclusive lower bound on created_at, 0 for none
     * @param until inclusive upper bound on created_at, {@link Long#MAX_VALUE} for none
     * @param limit the most stored events to return, or {@link #NO_LIMIT}
     */
    public Filter(
            Set<String> ids,
            Set<String> authors,
            int[] kinds,
            List<TagCondition> tags,
            long since,
            long until,
            int limit) {
        this.ids = ids == null ? null : Set.copyOf(ids);
        this.authors = authors == null ? null : Set.copyOf(authors);
        this.kinds = kinds == null ? null : sortedDistinct(kinds);
        this.tags = List.copyOf(tags);
        this.since = since;
        this.until = until;
        this.limit = limit;
    }

    public static Filter any() {
        return new Filter(null, null, null, List.of(), 0, Long.MAX_VALUE, NO_LIMIT);
    }

    public boolean matches(Event e) {
        if (e.createdAt() < since || e.createdAt() > until) {
            return false;
        }
        if (kinds != null && Arrays.binarySearch(kinds, e.kind()) < 0) {
            return false;
        }
        if (ids != null && !ids.contains(e.id())) {
            return false;
        }
        if (authors != null && !authors.contains(e.pubkey())) {
            return false;
        }
        for (int i = 0; i < tags.size(); i++) {
            if (!hasTag(e, tags.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasTag(Event e, TagCondition c) {
        List<List<String>> eventTags = e.tags();
        for (int i = 0; i < eventTags.size(); i++) {
            List<String> tag = eventTags.get(i);
            if (tag.size() >= 2) {
                String name = tag.get(0);
                if (name.length() == 1
                        && name.charAt(0) == c.letter()
                        && c.values().contains(tag.get(1))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when no event can match: an empty list, or since after until. */
    public boolean isEmpty() {
        if (since > until) {
            return true;
        }
        if ((ids != null && ids.isEmpty()) || (authors != null && authors.isEmpty())) {
            return true;
        }
        if (kinds != null && kinds.length == 0) {
            return true;
        }
        for (TagCondition t : tags) {
            if (t.values().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    public Set<String> ids() {
        return ids;
    }

    public Set<String> authors() {
        return authors;
    }

    /** Sorted, distinct; null for any. Shared: do not modify. */
    public int[] kinds() {
        return kinds;
    }

    public List<TagCondition> tags() {
        return tags;
    }

    public long since() {
        return since;
    }

    public long until() {
        return until;
    }

    public int limit() {
        return limit;
    }

    /** This filter with another limit. */
    public Filter withLimit(int newLimit) {
        return newLimit == limit ? this : new Filter(ids, authors, kinds, tags, since, until, newLimit);
    }

    private static int[] sortedDistinct(int[] values) {
        return Arrays.stream(values).sorted().distinct().toArray();
    }

    @Override
    public String toString() {
        return "Filter{ids=" + ids + ", authors=" + authors + ", kinds=" + Arrays.toString(kinds) + ", tags=" + tags
                + ", since=" + since + ", until=" + until + ", limit=" + limit + "}";
    }
}
