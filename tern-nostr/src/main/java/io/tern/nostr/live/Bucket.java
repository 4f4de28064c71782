package io.tern.nostr.live;

import java.util.Arrays;

/**
 * The filters filed under one key: an array iterated by index (nothing allocated per event) with
 * O(1) removal, by moving the last entry into the hole. Each entry remembers its slot in every
 * bucket it is in, which is what makes removal O(1).
 */
final class Bucket<S> {
    @SuppressWarnings("unchecked")
    private LiveIndex.Entry<S>[] entries = new LiveIndex.Entry[4];

    private int size;

    int size() {
        return size;
    }

    LiveIndex.Entry<S> get(int i) {
        return entries[i];
    }

    void add(LiveIndex.Entry<S> e) {
        if (size == entries.length) {
            entries = Arrays.copyOf(entries, size * 2);
        }
        entries[size] = e;
        e.slotIn(this, size);
        size++;
    }

    void remove(LiveIndex.Entry<S> e) {
        int slot = e.slotIn(this);
        int last = --size;
        if (slot != last) {
            LiveIndex.Entry<S> moved = entries[last];
            entries[slot] = moved;
            moved.slotIn(this, slot);
        }
        entries[last] = null;
    }
}
