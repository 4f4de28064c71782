package io.tern.bench.origin.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class TimerHeapTest {
    @Property(tries = 200)
    void popsInDeadlineOrder(@ForAll @Size(max = 300) List<@LongRange(min = 0, max = 1_000_000) Long> deadlines) {
        TimerHeap h = new TimerHeap();
        for (int i = 0; i < deadlines.size(); i++) {
            h.push(deadlines.get(i), i);
        }
        assertThat(h.size()).isEqualTo(deadlines.size());
        List<Long> popped = new ArrayList<>();
        while (!h.isEmpty()) {
            long d = h.peekDeadline();
            assertThat(deadlines.get(h.peekId())).isEqualTo(d);
            popped.add(d);
            h.pop();
        }
        assertThat(popped).isSortedAccordingTo(Comparator.naturalOrder());
        assertThat(popped).containsExactlyInAnyOrderElementsOf(deadlines);
        assertThat(h.peekDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    @Property(tries = 50)
    void interleavedPushesAndPopsKeepTheMinimumOnTop(
            @ForAll @Size(min = 1, max = 200) List<@LongRange(min = 0, max = 1000) Long> deadlines) {
        TimerHeap h = new TimerHeap();
        List<Long> model = new ArrayList<>();
        for (int i = 0; i < deadlines.size(); i++) {
            h.push(deadlines.get(i), i);
            model.add(deadlines.get(i));
            if (i % 3 == 2) {
                long min = model.stream().min(Long::compare).orElseThrow();
                assertThat(h.peekDeadline()).isEqualTo(min);
                h.pop();
                model.remove(min);
            }
        }
        assertThat(h.size()).isEqualTo(model.size());
    }

    @Test
    void timersRoundUpToTheGrid() {
        assertThat(ViewerLoop.gridSlot(0)).isZero();
        assertThat(ViewerLoop.gridSlot(1)).isEqualTo(ViewerLoop.TIMER_GRID_NS);
        assertThat(ViewerLoop.gridSlot(ViewerLoop.TIMER_GRID_NS)).isEqualTo(ViewerLoop.TIMER_GRID_NS);
        assertThat(ViewerLoop.gridSlot(ViewerLoop.TIMER_GRID_NS + 1)).isEqualTo(2 * ViewerLoop.TIMER_GRID_NS);
    }
}
