package io.tern.netty.hls;

import io.tern.netty.http.SharedBody;
import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One release of held requests answered with one shared body, grouped by the event loop that owns
 * each request's connection. A part that completes releases every viewer's blocking reload at once
 * (750 per rendition at 750 viewers); handed over one by one, each answer for a connection of
 * another loop cost a task, a lambda and a retain of the body. Here each other loop gets one task
 * for all its answers, posted before this loop answers its own so both loops write at once, and
 * the body is retained once per task. Each connection still gets its own write and flush, in the
 * order the requests were held. Per release it allocates a task per other loop, nothing per
 * request; the home loop's list is reused. Confined to the home loop.
 *
 * @param <T> what is answered (a held request)
 */
final class LoopBatches<T> {
    /** Answers one item with the release's body, on the item's loop. */
    @FunctionalInterface
    interface Answer<T> {
        void answer(T item, SharedBody body);
    }

    private static final System.Logger LOG = System.getLogger("tern.origin");
    private static final int INITIAL_ITEMS = 16;

    private final Executor home;
    private final Answer<T> answer;
    private Object[] local = new Object[INITIAL_ITEMS];
    /** The other of the two home lists: an answer that leads to another release fills this one. */
    private Object[] spare = new Object[INITIAL_ITEMS];

    private int localCount;
    private Executor[] loops = new Executor[2];
    private Batch<?>[] batches = new Batch<?>[2];
    private int loopCount;

    LoopBatches(Executor home, Answer<T> answer) {
        this.home = home;
        this.answer = answer;
    }

    /** Adds {@code item}, to be answered on {@code loop}. */
    void add(Executor loop, T item) {
        if (loop == home) {
            if (localCount == local.length) {
                local = Arrays.copyOf(local, localCount * 2);
            }
            local[localCount++] = item;
            return;
        }
        batchFor(loop).add(item);
    }

    /**
     * Answers every item added since the last call with {@code body}: one task per other loop
     * (posted first), then the home loop's items, here. Returns the number of tasks posted.
     */
    @SuppressWarnings("unchecked")
    int answerAll(SharedBody body) {
        int posted = loopCount;
        for (int i = 0; i < loopCount; i++) {
            Batch<T> batch = (Batch<T>) batches[i];
            body.retain(); // the home loop may release the body before the other loop answers
            batch.body = body;
            try {
                loops[i].execute(batch);
            } catch (RejectedExecutionException e) { // that loop is shutting down, its connections with it
                body.release();
            }
            loops[i] = null;
            batches[i] = null;
        }
        loopCount = 0;
        Object[] items = local;
        int count = localCount;
        local = spare;
        spare = items;
        localCount = 0;
        try {
            for (int i = 0; i < count; i++) {
                answerOne(answer, (T) items[i], body);
            }
        } finally {
            Arrays.fill(items, 0, count, null);
        }
        return posted;
    }

    /** One answer that fails leaves the others of its release unharmed. */
    private static <T> void answerOne(Answer<T> answer, T item, SharedBody body) {
        try {
            answer.answer(item, body);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "a released request could not be answered", e);
        }
    }

    @SuppressWarnings("unchecked")
    private Batch<T> batchFor(Executor loop) {
        for (int i = 0; i < loopCount; i++) {
            if (loops[i] == loop) {
                return (Batch<T>) batches[i];
            }
        }
        if (loopCount == loops.length) {
            loops = Arrays.copyOf(loops, loopCount * 2);
            batches = Arrays.copyOf(batches, loopCount * 2);
        }
        Batch<T> batch = new Batch<>(answer);
        loops[loopCount] = loop;
        batches[loopCount++] = batch;
        return batch;
    }

    /** The items of one other loop, answered there by one task. */
    private static final class Batch<T> implements Runnable {
        private final Answer<T> answer;
        private Object[] items = new Object[INITIAL_ITEMS];
        private int count;
        private SharedBody body;

        Batch(Answer<T> answer) {
            this.answer = answer;
        }

        void add(T item) {
            if (count == items.length) {
                items = Arrays.copyOf(items, count * 2);
            }
            items[count++] = item;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void run() {
            try {
                for (int i = 0; i < count; i++) {
                    answerOne(answer, (T) items[i], body);
                }
            } finally {
                body.release();
            }
        }
    }
}
