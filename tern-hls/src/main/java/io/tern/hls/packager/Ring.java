package io.tern.hls.packager;

import java.util.Arrays;

/** A growable circular array: append at the end, remove from the front, index in between. */
final class Ring<T> {
    private Object[] items = new Object[16];
    private int head;
    private int size;

    void addLast(T item) {
        if (size == items.length) {
            Object[] bigger = new Object[items.length * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = items[(head + i) % items.length];
            }
            items = bigger;
            head = 0;
        }
        items[(head + size) % items.length] = item;
        size++;
    }

    T removeFirst() {
        T item = get(0);
        items[head] = null;
        head = (head + 1) % items.length;
        size--;
        return item;
    }

    @SuppressWarnings("unchecked")
    T get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return (T) items[(head + i) % items.length];
    }

    T first() {
        return get(0);
    }

    T last() {
        return get(size - 1);
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void clear() {
        Arrays.fill(items, null);
        head = 0;
        size = 0;
    }
}
