package io.tern.turn.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The timer wheel against a plain map of deadlines: same expiries, and a next deadline that is never late. */
class TimerWheelTest {
    private static final long START_NS = 1_000_000_000_000L;
    private static final int SHIFT = 20;
    private static final int SLOTS = 16;
    private static final long TICK_NS = 1L << SHIFT;

    private static final class Timer extends Expiring {
        final int id;

        Timer(int id) {
            this.id = id;
        }
    }

    /** One step of a random schedule: schedule (or move) a timer, cancel it, or let time pass. */
    record Step(int kind, int timer, long deltaNs) {}

    @Provide
    Arbitrary<List<Step>> steps() {
        // Deadlines up to three rotations of the wheel ahead, so later-rotation timers share slots.
        Arbitrary<Step> step = Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(0, 19),
                        Arbitraries.longs().between(0, 3 * SLOTS * TICK_NS))
                .as(Step::new);
        return step.list().ofMaxSize(200);
    }

    @Property(tries = 500)
    void expiresWhatIsDueAndNeverPromisesTooLate(@ForAll("steps") List<Step> steps) {
        TimerWheel wheel = new TimerWheel(START_NS, SHIFT, SLOTS);
        Timer[] timers = new Timer[20];
        for (int i = 0; i < timers.length; i++) {
            timers[i] = new Timer(i);
        }
        Map<Integer, Long> model = new HashMap<>();
        long nowNs = START_NS;
        for (Step step : steps) {
            Timer timer = timers[step.timer()];
            switch (step.kind()) {
                case 0 -> {
                    wheel.schedule(timer, nowNs + step.deltaNs());
                    model.put(timer.id, nowNs + step.deltaNs());
                }
                case 1 -> {
                    wheel.cancel(timer);
                    model.remove(timer.id);
                }
                default -> {
                    long next = wheel.nextDeadlineNs();
                    long earliest = model.values().stream()
                            .mapToLong(Long::longValue)
                            .min()
                            .orElse(Long.MAX_VALUE);
                    assertThat(next).as("next deadline").isLessThanOrEqualTo(earliest);
                    nowNs += step.deltaNs() / 4;
                    List<Integer> expired = new ArrayList<>();
                    long at = nowNs;
                    wheel.poll(nowNs, (t, n) -> expired.add(((Timer) t).id));
                    List<Integer> due = model.entrySet().stream()
                            .filter(e -> e.getValue() <= at)
                            .map(Map.Entry::getKey)
                            .sorted()
                            .toList();
                    assertThat(expired.stream().sorted().toList()).isEqualTo(due);
                    due.forEach(model::remove);
                }
            }
            assertThat(wheel.size()).isEqualTo(model.size());
        }
    }

    @Test
    void nextDeadlineIsTheEarliestTimerNotTheNextTick() {
        TimerWheel wheel = new TimerWheel(START_NS, SHIFT, SLOTS);
        assertThat(wheel.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
        Timer far = new Timer(1);
        Timer near = new Timer(2);
        wheel.schedule(far, START_NS + 100 * SLOTS * TICK_NS);
        wheel.schedule(near, START_NS + 5 * TICK_NS + 7);
        assertThat(wheel.nextDeadlineNs()).isEqualTo(START_NS + 5 * TICK_NS + 7);

        assertThat(wheel.poll(START_NS + 5 * TICK_NS + 7, (t, n) -> {})).isEqualTo(1);
        // Recomputed after the expiry: the far timer, many rotations away, not a tick.
        assertThat(wheel.nextDeadlineNs()).isEqualTo(START_NS + 100 * SLOTS * TICK_NS);
    }

    @Test
    void aHandlerMayCancelOtherTimersOfTheSameSlot() {
        TimerWheel wheel = new TimerWheel(START_NS, SHIFT, SLOTS);
        Timer owner = new Timer(1);
        Timer child = new Timer(2);
        Timer later = new Timer(3);
        Timer sibling = new Timer(4);
        wheel.schedule(owner, START_NS + 10);
        wheel.schedule(later, START_NS + SLOTS * TICK_NS + 10); // same slot, next rotation
        wheel.schedule(child, START_NS + 20);
        wheel.schedule(sibling, START_NS + 30);
        List<Integer> expired = new ArrayList<>();
        wheel.poll(START_NS + 40, (t, n) -> {
            expired.add(((Timer) t).id);
            if (t == owner) {
                wheel.cancel(child);
                wheel.cancel(later);
            }
        });
        assertThat(expired).containsExactlyInAnyOrder(1, 4);
        assertThat(wheel.size()).isZero();
    }
}
