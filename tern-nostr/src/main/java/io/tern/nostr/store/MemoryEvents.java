package io.tern.nostr.store;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.KindClass;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference store: every rule written as plainly as possible over maps and scans. It is the
 * oracle the SQLite store is property-tested against, and the backend of {@link MemoryEventStore}.
 * Not thread-safe.
 */
public final class MemoryEvents implements StoreBackend {
    /** Newest first; equal created_at, lowest id first (NIP-01's order for {@code limit}). */
    public static final Comparator<SerializedEvent> NEWEST_FIRST =
            Comparator.comparingLong(SerializedEvent::createdAt).reversed().thenComparing(SerializedEvent::id);

    private final boolean deletionEnabled;
    private final Map<String, Event> byId = new LinkedHashMap<>();
    private final Map<String, Event> byAddress = new HashMap<>();

    public MemoryEvents(boolean deletionEnabled) {
        this.deletionEnabled = deletionEnabled;
    }

    public MemoryEvents() {
        this(true);
    }

    public WriteOutcome write(Event e) {
        if (byId.containsKey(e.id())) {
            return WriteOutcome.DUPLICATE;
        }
        if (deletionEnabled && isDeleted(e)) {
            return WriteOutcome.DELETED;
        }
        String address = e.address();
        if (address != null) {
            Event old = byAddress.get(address);
            if (old != null) {
                if (!replaces(e, old)) {
                    return WriteOutcome.SUPERSEDED;
                }
                byId.remove(old.id());
            }
            byAddress.put(address, e);
        }
        byId.put(e.id(), e);
        if (deletionEnabled && e.kind() == KindClass.DELETION) {
            applyDeletion(e);
        }
        return WriteOutcome.STORED;
    }

    /** Newer created_at wins; on a tie the lower id. */
    public static boolean replaces(Event candidate, Event existing) {
        if (candidate.createdAt() != existing.createdAt()) {
            return candidate.createdAt() > existing.createdAt();
        }
        return candidate.id().compareTo(existing.id()) < 0;
    }

    /** Whether a stored deletion request by the same author names {@code e} (a request cannot be deleted). */
    private boolean isDeleted(Event e) {
        if (e.kind() == KindClass.DELETION) {
            return false;
        }
        String address = e.address();
        for (Event d : byId.values()) {
            if (d.kind() == KindClass.DELETION && d.pubkey().equals(e.pubkey()) && names(d, e, address)) {
                return true;
            }
        }
        return false;
    }

    private void applyDeletion(Event d) {
        List<Event> doomed = new ArrayList<>();
        for (Event x : byId.values()) {
            if (x.kind() != KindClass.DELETION && x.pubkey().equals(d.pubkey()) && names(d, x, x.address())) {
                doomed.add(x);
            }
        }
        doomed.forEach(this::remove);
    }

    /** Does deletion request {@code d} name {@code x}: by id, or by address up to its own created_at? */
    private static boolean names(Event d, Event x, String xAddress) {
        for (List<String> tag : d.tags()) {
            if (tag.size() < 2) {
                continue;
            }
            String name = tag.get(0);
            if (name.equals("e") && tag.get(1).equals(x.id())) {
                return true;
            }
            if (name.equals("a") && xAddress != null && tag.get(1).equals(xAddress) && x.createdAt() <= d.createdAt()) {
                return true;
            }
        }
        return false;
    }

    private void remove(Event x) {
        byId.remove(x.id());
        String address = x.address();
        if (address != null && byAddress.get(address) == x) {
            byAddress.remove(address);
        }
    }

    /** The filter's results (see {@link StoreBackend#openQuery}) as a list. */
    public List<Event> query(Filter filter, long nowSeconds) {
        List<Event> out = new ArrayList<>();
        for (Event e : byId.values()) {
            if (!e.isExpiredAt(nowSeconds) && filter.matches(e)) {
                out.add(e);
            }
        }
        out.sort(NEWEST_FIRST);
        int limit = filter.limit();
        return limit >= 0 && out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
    }

    public long count(List<Filter> filters, long nowSeconds) {
        return matchingAny(filters, nowSeconds).size();
    }

    private List<Event> matchingAny(List<Filter> filters, long nowSeconds) {
        List<Event> out = new ArrayList<>();
        for (Event e : byId.values()) {
            if (e.isExpiredAt(nowSeconds)) {
                continue;
            }
            for (Filter f : filters) {
                if (f.matches(e)) {
                    out.add(e);
                    break;
                }
            }
        }
        return out;
    }

    public boolean contains(String id) {
        return byId.containsKey(id);
    }

    public int size() {
        return byId.size();
    }

    @Override
    public List<WriteOutcome> writeBatch(List<Event> events) {
        List<WriteOutcome> outcomes = new ArrayList<>(events.size());
        for (Event e : events) {
            outcomes.add(write(e));
        }
        return outcomes;
    }

    @Override
    public Cursor openQuery(Filter filter, long nowSeconds) {
        return new ListCursor(query(filter, nowSeconds));
    }

    @Override
    public Cursor openCount(List<Filter> filters, long nowSeconds) {
        return new ListCursor(matchingAny(filters, nowSeconds));
    }

    @Override
    public int purgeExpired(long nowSeconds) {
        List<Event> expired = new ArrayList<>();
        for (Event e : byId.values()) {
            if (e.isExpiredAt(nowSeconds)) {
                expired.add(e);
            }
        }
        expired.forEach(this::remove);
        return expired.size();
    }

    @Override
    public void close() {}

    private static final class ListCursor implements Cursor {
        private final List<? extends SerializedEvent> events;
        private int next;

        ListCursor(List<? extends SerializedEvent> events) {
            this.events = events;
        }

        @Override
        public int step(int maxRows, List<SerializedEvent> out) {
            int n = Math.min(maxRows, events.size() - next);
            if (out != null) {
                out.addAll(events.subList(next, next + n));
            }
            next += n;
            return n;
        }

        @Override
        public void close() {}
    }
}
