package io.tern.nostr.bus;

import java.util.LinkedHashMap;
import java.util.Map;

/** The last {@code capacity} event ids delivered, oldest forgotten first: the bus's duplicate check. */
final class RecentIds {
    private final LinkedHashMap<String, Boolean> ids;

    RecentIds(int capacity) {
        this.ids = new LinkedHashMap<>(Math.min(capacity, 4096), 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /** True when {@code id} was not among the recent ones (it is now). */
    boolean add(String id) {
        return ids.putIfAbsent(id, Boolean.TRUE) == null;
    }
}
