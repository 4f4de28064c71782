package io.tern.turn.transaction;

import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

/**
 * Remembers the answers to recent authenticated requests, so that a retransmitted request gets
 * the same answer instead of being processed twice (RFC 8489 §6.3.1: a retransmitted Allocate
 * must not fail with 437). Fixed memory: a ring of slots with preallocated byte arrays; the oldest
 * entry is overwritten when the ring is full.
 */
public final class TransactionCache {
    public static final int MAX_RESPONSE_BYTES = 512;

    private final long[] clientKeys;
    private final int[] tidHighs;
    private final long[] tidLows;
    private final long[] expiresAtNs;
    private final int[] lengths;
    private final byte[][] responses;
    private final Long2LongHashMap slotByKey = new Long2LongHashMap(-1);
    private final long lifetimeNs;
    private int next;

    public TransactionCache(int capacity, long lifetimeNs) {
        this.clientKeys = new long[capacity];
        this.tidHighs = new int[capacity];
        this.tidLows = new long[capacity];
        this.expiresAtNs = new long[capacity];
        this.lengths = new int[capacity];
        this.responses = new byte[capacity][MAX_RESPONSE_BYTES];
        this.lifetimeNs = lifetimeNs;
    }

    private static long mix(long clientKey, int tidHigh, long tidLow) {
        long h = clientKey * 0x9E3779B97F4A7C15L ^ tidLow;
        h = (h ^ (h >>> 29)) * 0xBF58476D1CE4E5B9L ^ tidHigh;
        return h ^ (h >>> 32);
    }

    /** The slot holding the cached answer, or -1. */
    public int find(long clientKey, int tidHigh, long tidLow, long nowNs) {
        long slot = slotByKey.get(mix(clientKey, tidHigh, tidLow));
        if (slot < 0) {
            return -1;
        }
        int s = (int) slot;
        if (clientKeys[s] != clientKey || tidHighs[s] != tidHigh || tidLows[s] != tidLow || expiresAtNs[s] <= nowNs) {
            return -1;
        }
        return s;
    }

    public byte[] response(int slot) {
        return responses[slot];
    }

    public int responseLength(int slot) {
        return lengths[slot];
    }

    /** Stores an answer; answers too large for a slot are not cached. */
    public void put(
            long clientKey, int tidHigh, long tidLow, DirectBuffer response, int offset, int length, long nowNs) {
        if (length > MAX_RESPONSE_BYTES || clientKeys.length == 0) {
            return;
        }
        int s = next;
        next = (next + 1) % clientKeys.length;
        if (lengths[s] > 0) {
            long oldKey = mix(clientKeys[s], tidHighs[s], tidLows[s]);
            if (slotByKey.get(oldKey) == s) {
                slotByKey.remove(oldKey);
            }
        }
        clientKeys[s] = clientKey;
        tidHighs[s] = tidHigh;
        tidLows[s] = tidLow;
        expiresAtNs[s] = nowNs + lifetimeNs;
        lengths[s] = length;
        response.getBytes(offset, responses[s], 0, length);
        slotByKey.put(mix(clientKey, tidHigh, tidLow), s);
    }
}
