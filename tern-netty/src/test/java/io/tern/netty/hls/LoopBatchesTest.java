package io.tern.netty.hls;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.http.SharedBody;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/** A release grouped by loop: one task per other loop, the home loop's answers at once, one shared body. */
class LoopBatchesTest {
    /** An event loop that queues its tasks until the test runs them. */
    private static final class Loop implements Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        int posted;

        @Override
        public void execute(Runnable task) {
            posted++;
            tasks.add(task);
        }

        void runAll() {
            for (Runnable t; (t = tasks.poll()) != null; ) {
                t.run();
            }
        }
    }

    private record Answered(String item, SharedBody body, int refCntWhenAnswered) {}

    @Test
    void eachOtherLoopGetsOneTaskForAllItsAnswersAndTheHomeLoopAnswersAtOnce() {
        Loop home = new Loop();
        Loop a = new Loop();
        Loop b = new Loop();
        List<Answered> answered = new ArrayList<>();
        LoopBatches<String> batches =
                new LoopBatches<>(home, (item, body) -> answered.add(new Answered(item, body, body.refCnt())));
        SharedBody body = SharedBody.utf8("#EXTM3U\n", "application/vnd.apple.mpegurl");

        for (int i = 0; i < 40; i++) { // past the lists' first size: they grow without losing items
            batches.add(i % 3 == 0 ? home : i % 3 == 1 ? a : b, "r" + i);
        }
        int posted = batches.answerAll(body);

        assertThat(posted).isEqualTo(2);
        assertThat(a.posted).as("one task for all of loop a's answers").isEqualTo(1);
        assertThat(b.posted).isEqualTo(1);
        assertThat(home.posted).as("the home loop's answers need no task").isZero();
        assertThat(answered)
                .as("the home loop's answers are written before answerAll returns, in the order held")
                .extracting(Answered::item)
                .containsExactlyElementsOf(expected(0));
        body.release(); // the creator lets go (a newer playlist version replaced it) before the other loops answer
        assertThat(body.refCnt()).as("the posted tasks still hold the body").isEqualTo(1);

        a.runAll();
        assertThat(answered.subList(14, answered.size()))
                .extracting(Answered::item)
                .containsExactlyElementsOf(expected(1));
        b.runAll();
        assertThat(answered).hasSize(40);
        assertThat(answered)
                .as("every answer shares the one body")
                .allSatisfy(x -> assertThat(x.body()).isSameAs(body));
        assertThat(answered.subList(14, 40))
                .as("an answer on another loop finds the body alive")
                .allSatisfy(x -> assertThat(x.refCntWhenAnswered()).isPositive());
        assertThat(body.refCnt()).as("the last task's release freed the body").isZero();
    }

    @Test
    void aReleaseStartsEmptyAfterTheLastAndAFailingAnswerLeavesTheOthersAnswered() {
        Loop home = new Loop();
        Loop a = new Loop();
        List<String> answered = new ArrayList<>();
        LoopBatches<String> batches = new LoopBatches<>(home, (item, body) -> {
            if (item.startsWith("bad")) {
                throw new IllegalStateException("the connection broke");
            }
            answered.add(item);
        });
        SharedBody body = SharedBody.utf8("#EXTM3U\n", "application/vnd.apple.mpegurl");
        batches.add(home, "bad-home");
        batches.add(home, "h1");
        batches.add(a, "bad-a");
        batches.add(a, "a1");
        batches.answerAll(body);
        a.runAll();
        assertThat(answered).containsExactly("h1", "a1");

        answered.clear();
        assertThat(batches.answerAll(body)).as("nothing added since: no task").isZero();
        assertThat(answered).isEmpty();
        batches.add(a, "a2");
        assertThat(batches.answerAll(body)).isEqualTo(1);
        a.runAll();
        assertThat(answered).containsExactly("a2");
        body.release();
        assertThat(body.refCnt())
                .as("the failing release gave its reference back too")
                .isZero();
    }

    @Test
    void aLoopThatRefusesItsTaskGivesTheBodyBackAndTheOthersAreStillAnswered() {
        Loop home = new Loop();
        Executor closed = task -> {
            throw new java.util.concurrent.RejectedExecutionException("shut down");
        };
        Loop a = new Loop();
        List<String> answered = new ArrayList<>();
        LoopBatches<String> batches = new LoopBatches<>(home, (item, body) -> answered.add(item));
        SharedBody body = SharedBody.utf8("#EXTM3U\n", "application/vnd.apple.mpegurl");
        batches.add(closed, "gone");
        batches.add(a, "a1");
        batches.add(home, "h1");
        batches.answerAll(body);
        a.runAll();
        assertThat(answered).containsExactly("h1", "a1");
        body.release();
        assertThat(body.refCnt())
                .as("the refused task's reference was given back")
                .isZero();
    }

    private static List<String> expected(int remainder) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            if (i % 3 == remainder) {
                out.add("r" + i);
            }
        }
        return out;
    }
}
