package io.tern.netty.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The engine loop on an embedded event loop with a fake ticker: the clock is read once per turn,
 * one timer is armed for the engine's deadline, and the slack rule decides when it moves.
 */
class EngineLoopTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final MockTicker ticker = Ticker.newMockTicker();
    private final EmbeddedChannel channel =
            EmbeddedChannel.builder().ticker(ticker).build();
    private final EventLoop loop = channel.eventLoop();
    private final LoopClock clock = LoopClock.of(loop);
    private final FakeEngine engine = new FakeEngine();
    private final EngineLoop engineLoop = new EngineLoop(clock, engine);

    /** An engine whose outputs are strings and whose deadline the test sets. */
    private final class FakeEngine implements EngineLoop.Driver {
        final List<String> queued = new ArrayList<>();
        final List<String> carriedOut = new ArrayList<>();
        final List<Long> timeouts = new ArrayList<>();
        long deadlineNs = Long.MAX_VALUE;

        @Override
        public long drainOutputs() {
            while (!queued.isEmpty()) {
                String output = queued.remove(0);
                carriedOut.add(output);
                if (output.equals("answer me")) {
                    // Handling this output is a new input, which asks for a drain of its own.
                    queued.add("answer");
                    engineLoop.drain();
                }
            }
            return deadlineNs;
        }

        @Override
        public void onTimeout(long nowNs) {
            timeouts.add(nowNs);
            if (nowNs >= deadlineNs) {
                deadlineNs = Long.MAX_VALUE;
                queued.add("timed out");
            }
        }
    }

    /** Ends the current turn: the loop runs its tasks (and any timer due by the ticker). */
    private void endTurn() {
        channel.runPendingTasks();
    }

    @Test
    void theClockIsReadOncePerTurn() {
        long first = clock.nowNs();
        ticker.advance(5, TimeUnit.MILLISECONDS);
        assertThat(clock.nowNs()).isEqualTo(first);
        endTurn();
        assertThat(clock.nowNs()).isEqualTo(first + 5 * MS);
        assertThat(LoopClock.of(loop)).isSameAs(clock);
    }

    @Test
    void drainCarriesOutEveryOutputThenArmsOneTimerForTheDeadline() {
        long startNs = clock.nowNs();
        engine.queued.add("a");
        engine.queued.add("b");
        engine.deadlineNs = startNs + 10 * MS;
        engineLoop.drain();
        assertThat(engine.carriedOut).containsExactly("a", "b");
        assertThat(engineLoop.armedDeadlineNs()).isEqualTo(startNs + 10 * MS);

        endTurn();
        ticker.advance(9, TimeUnit.MILLISECONDS);
        endTurn();
        assertThat(engine.timeouts).isEmpty();

        ticker.advance(1, TimeUnit.MILLISECONDS);
        endTurn();
        assertThat(engine.timeouts).containsExactly(startNs + 10 * MS);
        assertThat(engine.carriedOut).containsExactly("a", "b", "timed out");
        assertThat(engineLoop.armedDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aLaterDeadlineKeepsTheArmedTimerWhichFiresEarlyAndRearms() {
        long startNs = clock.nowNs();
        engine.deadlineNs = startNs + 10 * MS;
        engineLoop.drain();
        engine.deadlineNs = startNs + 30 * MS;
        engineLoop.drain();
        assertThat(engineLoop.armedDeadlineNs()).isEqualTo(startNs + 10 * MS);

        endTurn();
        ticker.advance(10, TimeUnit.MILLISECONDS);
        endTurn();
        assertThat(engine.timeouts).containsExactly(startNs + 10 * MS);
        assertThat(engine.carriedOut).isEmpty();
        assertThat(engineLoop.armedDeadlineNs()).isEqualTo(startNs + 30 * MS);

        ticker.advance(20, TimeUnit.MILLISECONDS);
        endTurn();
        assertThat(engine.carriedOut).containsExactly("timed out");
    }

    @Test
    void anEarlierDeadlineMovesTheTimerOnlyWhenItIsMoreThanTheSlackEarlier() {
        long startNs = clock.nowNs();
        engine.deadlineNs = startNs + 10 * MS;
        engineLoop.drain();
        engine.deadlineNs = startNs + 10 * MS - EngineLoop.SLACK_NS;
        engineLoop.drain();
        assertThat(engineLoop.armedDeadlineNs()).isEqualTo(startNs + 10 * MS);

        engine.deadlineNs = startNs + 2 * MS;
        engineLoop.drain();
        assertThat(engineLoop.armedDeadlineNs()).isEqualTo(startNs + 2 * MS);
        endTurn();
        ticker.advance(2, TimeUnit.MILLISECONDS);
        endTurn();
        assertThat(engine.timeouts).containsExactly(startNs + 2 * MS);
        assertThat(engine.carriedOut).containsExactly("timed out");
    }

    @Test
    void aTimerSeesItsDeadlineEvenWhenTheClockWasReadEarlierInTheTurn() {
        long startNs = clock.nowNs();
        engine.deadlineNs = startNs + 10 * MS;
        engineLoop.drain();
        endTurn();
        clock.nowNs(); // a task reads the clock; the timer, due a moment later, runs in the same turn
        ticker.advance(10, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(engine.timeouts).containsExactly(startNs + 10 * MS);
        assertThat(engine.carriedOut).containsExactly("timed out");
    }

    @Test
    void aTimerArmedLateInALongTurnStillFiresAtItsDeadline() {
        long startNs = clock.nowNs();
        ticker.advance(4, TimeUnit.MILLISECONDS); // the turn has taken 4 ms so far
        engine.deadlineNs = startNs + 10 * MS;
        engineLoop.drain();
        endTurn();
        ticker.advance(6, TimeUnit.MILLISECONDS);
        endTurn();
        assertThat(engine.timeouts).containsExactly(startNs + 10 * MS);
    }

    @Test
    void aDrainAskedForInsideADrainRunsAfterItNotWithinIt() {
        engine.queued.add("answer me");
        engineLoop.drain();
        assertThat(engine.carriedOut).containsExactly("answer me", "answer");
    }

    @Test
    void closeCancelsTheTimerAndArmsNoOther() {
        long startNs = clock.nowNs();
        engine.deadlineNs = startNs + MS;
        engineLoop.drain();
        engineLoop.close();
        engineLoop.drain();
        assertThat(engineLoop.armedDeadlineNs()).isEqualTo(Long.MAX_VALUE);
        ticker.advance(5, TimeUnit.MILLISECONDS);
        endTurn();
        assertThat(engine.timeouts).isEmpty();
    }
}
