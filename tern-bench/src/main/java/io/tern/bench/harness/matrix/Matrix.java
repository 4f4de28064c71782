package io.tern.bench.harness.matrix;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * The order of a benchmark's runs: cell by cell, repeat by repeat, and within each repeat every
 * entrant (a server, or a server in one mode) once, so the servers alternate and drift from
 * elsewhere on the machine (other builds, a noisy neighbour) falls on all of them instead of on
 * whichever ran at the wrong moment. Every benchmark (relay, origin, Nostr, WebSocket echo) plans
 * its runs here.
 */
public final class Matrix {
    private Matrix() {}

    /** One planned run; {@code repeat} counts from 1. */
    public record Run<C, E>(C cell, int repeat, E entrant) {}

    /** Entrants in the order given within every repeat. */
    public static <C, E> List<Run<C, E>> alternating(List<C> cells, int repeats, List<E> entrants) {
        return alternating(cells, repeats, entrants, (cell, entrant) -> true);
    }

    /** As above, leaving out the (cell, entrant) pairs {@code runs} rejects (a server without that mode). */
    public static <C, E> List<Run<C, E>> alternating(
            List<C> cells, int repeats, List<E> entrants, BiPredicate<C, E> runs) {
        List<Run<C, E>> out = new ArrayList<>();
        for (C cell : cells) {
            for (int repeat = 1; repeat <= repeats; repeat++) {
                for (E entrant : entrants) {
                    if (runs.test(cell, entrant)) {
                        out.add(new Run<>(cell, repeat, entrant));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Repeat by repeat, then cell by cell, the entrants' order rotated by one each repeat, so no
     * entrant always runs first (on a warm cache) or last. For short runs, where a whole round of
     * cells takes seconds and the machine's load shifts between rounds rather than within one.
     */
    public static <C, E> List<Run<C, E>> rotating(List<C> cells, int repeats, List<E> entrants) {
        List<Run<C, E>> out = new ArrayList<>();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            for (C cell : cells) {
                for (int k = 0; k < entrants.size(); k++) {
                    out.add(new Run<>(cell, repeat, entrants.get((repeat - 1 + k) % entrants.size())));
                }
            }
        }
        return out;
    }
}
