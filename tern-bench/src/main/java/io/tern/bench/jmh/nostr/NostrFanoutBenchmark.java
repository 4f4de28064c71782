package io.tern.bench.jmh.nostr;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.filter.TagCondition;
import io.tern.nostr.live.LiveIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Live fan-out of one rendezvous offer to 1,000 subscriptions ({@code kinds:[25050], #p:[room]}):
 * all in the offer's room ({@code sameRoom}) or each in its own room ({@code ownRooms}, one
 * match). {@code index} asks the {@link LiveIndex}; {@code scan} tests every filter, the naive
 * relay's way, for comparison. {@code matchOne} is a single filter test.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class NostrFanoutBenchmark {
    private static final int SUBSCRIBERS = 1000;

    @Param({"sameRoom", "ownRooms"})
    String rooms;

    private final LiveIndex<Integer> index = new LiveIndex<>();
    private final List<Filter> filters = new ArrayList<>();
    private final List<Integer> matched = new ArrayList<>(SUBSCRIBERS);
    private Event offer;

    @Setup(Level.Trial)
    public void setUp() {
        String room = "0".repeat(63) + "1";
        offer = NostrFixtures.offer(room);
        for (int i = 0; i < SUBSCRIBERS; i++) {
            String r = "sameRoom".equals(rooms) ? room : String.format("%064x", i + 1);
            Filter f = new Filter(
                    null, null, new int[] {25050}, List.of(new TagCondition('p', Set.of(r))), 0, Long.MAX_VALUE, 0);
            filters.add(f);
            index.add(i, List.of(f));
        }
    }

    @Benchmark
    public int index() {
        matched.clear();
        index.match(offer, matched);
        return matched.size();
    }

    @Benchmark
    public int scan() {
        int n = 0;
        for (int i = 0; i < filters.size(); i++) {
            if (filters.get(i).matches(offer)) {
                n++;
            }
        }
        return n;
    }

    @Benchmark
    public boolean matchOne() {
        return filters.get(0).matches(offer);
    }
}
