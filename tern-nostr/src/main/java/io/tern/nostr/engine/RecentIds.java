package io.tern.nostr.engine;

import org.agrona.collections.LongHashSet;

/**
 * The ids of the last {@code capacity} events broadcast, so that an event reaching the engine
 * twice (committed here and then echoed by the fleet's bus, or stored on two nodes) goes out to
 * live subscribers once. Bounded: the oldest id leaves when a new one comes in. An id is keyed by
 * its first 8 bytes: ids are SHA-256 hashes, so two distinct events share a key with probability
 * about {@code capacity / 2^64} per event.
 */
final class RecentIds {
    private final long[] ring;
    private final LongHashSet keys;
    private int next;
    private int size;

    RecentIds(int capacity) {
        this.ring = new long[capacity];
        this.keys = new LongHashSet(capacity * 2);
    }

    /** Remembers {@code id}; false if it is already among the recent ones (then nothing changes). */
    boolean add(byte[] id) {
        long key = key(id);
        if (keys.contains(key)) {
            return false;
        }
        if (size == ring.length) {
            keys.remove(ring[next]);
        } else {
            size++;
        }
        ring[next] = key;
        next = next + 1 == ring.length ? 0 : next + 1;
        keys.add(key);
        return true;
    }

    int size() {
        return size;
    }

    private static long key(byte[] id) {
        long k = 0;
        for (int i = 0; i < 8; i++) {
            k = (k << 8) | (id[i] & 0xFF);
        }
        return k;
    }
}
