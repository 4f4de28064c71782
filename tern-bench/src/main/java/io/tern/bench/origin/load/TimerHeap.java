package io.tern.bench.origin.load;

import java.util.Arrays;

/**
 * A binary min-heap of (deadline, viewer index) pairs in two primitive arrays: one event loop's
 * viewer timers, with no object per timer. Entries are never removed early; a popped entry whose
 * deadline is no longer the viewer's is simply skipped by the caller.
 */
final class TimerHeap {
    private long[] deadlines = new long[64];
    private int[] ids = new int[64];
    private int size;

    void push(long deadlineNs, int id) {
        if (size == deadlines.length) {
            deadlines = Arrays.copyOf(deadlines, size * 2);
            ids = Arrays.copyOf(ids, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (deadlines[parent] <= deadlineNs) {
                break;
            }
            deadlines[i] = deadlines[parent];
            ids[i] = ids[parent];
            i = parent;
        }
        deadlines[i] = deadlineNs;
        ids[i] = id;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The earliest deadline, or {@code Long.MAX_VALUE} when empty. */
    long peekDeadline() {
        return size == 0 ? Long.MAX_VALUE : deadlines[0];
    }

    int peekId() {
        return ids[0];
    }

    /** Removes the earliest entry. */
    void pop() {
        size--;
        if (size == 0) {
            return;
        }
        long d = deadlines[size];
        int id = ids[size];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && deadlines[child + 1] < deadlines[child]) {
                child++;
            }
            if (deadlines[child] >= d) {
                break;
            }
            deadlines[i] = deadlines[child];
            ids[i] = ids[child];
            i = child;
        }
        deadlines[i] = d;
        ids[i] = id;
    }
}
