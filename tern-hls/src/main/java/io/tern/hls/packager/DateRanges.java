package io.tern.hls.packager;

import io.tern.hls.playlist.AsciiBuffer;
import io.tern.hls.playlist.DateRange;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The stream's date ranges: shown in every media playlist while any of their dates maps to a
 * listed segment (§6.2.1), then remembered as removed for the delta updates that must report
 * them ({@code RECENTLY-REMOVED-DATERANGES}, §6.2.5.1). Bounded in count.
 */
final class DateRanges {
    static final int MAX_RANGES = 64;

    private record Entry(DateRange range, long addedNs) {}

    private record Removed(String id, long removedNs) {}

    private final List<Entry> ranges = new ArrayList<>();
    private final ArrayDeque<Removed> removed = new ArrayDeque<>();

    /** Adds a range; false if its ID was used before or the table is full. */
    boolean add(DateRange range, long nowNs) {
        for (Entry e : ranges) {
            if (e.range().id().equals(range.id())) {
                return false;
            }
        }
        for (Removed r : removed) {
            if (r.id().equals(range.id())) {
                return false;
            }
        }
        if (ranges.size() >= MAX_RANGES) {
            return false;
        }
        ranges.add(new Entry(range, nowNs));
        return true;
    }

    boolean isEmpty() {
        return ranges.isEmpty() && removed.isEmpty();
    }

    /** Removes the ranges that end before {@code firstListedMs}; true if any was. */
    boolean expire(long firstListedMs, long nowNs, long canSkipUntilS) {
        boolean changed = false;
        for (int i = ranges.size() - 1; i >= 0; i--) {
            if (ranges.get(i).range().endEpochMs() < firstListedMs) {
                removed.addLast(new Removed(ranges.remove(i).range().id(), nowNs));
                changed = true;
            }
        }
        long keepNs = canSkipUntilS * 2_000_000_000L;
        while (!removed.isEmpty()
                && (nowNs - removed.peekFirst().removedNs() > keepNs || removed.size() > MAX_RANGES)) {
            removed.removeFirst();
        }
        return changed;
    }

    /** Ranges a v2 delta leaves out: added more than the skip boundary before the request. */
    int countAddedBefore(long nowNs, long canSkipUntilS) {
        int n = 0;
        for (Entry e : ranges) {
            if (old(e, nowNs, canSkipUntilS)) {
                n++;
            }
        }
        return n;
    }

    /** Tab-separated IDs removed within the skip boundary before the request, or "". */
    String removedWithin(long nowNs, long canSkipUntilS) {
        StringBuilder ids = new StringBuilder();
        for (Removed r : removed) {
            if (nowNs - r.removedNs() <= canSkipUntilS * 1_000_000_000L) {
                if (!ids.isEmpty()) {
                    ids.append('\t');
                }
                ids.append(r.id());
            }
        }
        return ids.toString();
    }

    void appendTags(AsciiBuffer out, boolean skipOld, long nowNs, long canSkipUntilS) {
        for (Entry e : ranges) {
            if (!skipOld || !old(e, nowNs, canSkipUntilS)) {
                e.range().appendTag(out);
            }
        }
    }

    private static boolean old(Entry e, long nowNs, long canSkipUntilS) {
        return nowNs - e.addedNs() > canSkipUntilS * 1_000_000_000L;
    }
}
