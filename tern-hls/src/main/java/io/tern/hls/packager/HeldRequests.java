package io.tern.hls.packager;

import io.tern.hls.media.Part;
import io.tern.hls.playlist.SkipRequest;
import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The one table of requests the packager holds: blocking playlist reloads (keyed by the part
 * they wait for), multivariant requests waiting for the first segments, and requests for the
 * part being written. Each has a ticket and a deadline; the packager releases them as parts are
 * listed and expires them at their deadlines.
 *
 * <p>Waits are keyed by {@code (msn, part)} packed into a long ({@link #key}), with a whole
 * segment as part {@link #WHOLE_SEGMENT}, so a new part releases every wait at or below it with
 * one ordered-map walk instead of a scan.
 */
final class HeldRequests {
    static final int PART_BITS = 20;
    static final long WHOLE_SEGMENT = (1L << PART_BITS) - 1;

    enum Kind {
        PLAYLIST,
        MULTIVARIANT,
        PART
    }

    static final class Held {
        final long ticket;
        final Kind kind;
        final TrackType track;
        final SkipRequest skip;
        final long deadlineNs;
        final Part part;
        long key;
        boolean done;

        Held(long ticket, Kind kind, TrackType track, long key, SkipRequest skip, long deadlineNs, Part part) {
            this.ticket = ticket;
            this.kind = kind;
            this.track = track;
            this.key = key;
            this.skip = skip;
            this.deadlineNs = deadlineNs;
            this.part = part;
        }
    }

    private final Map<Long, Held> byTicket = new HashMap<>();
    private final Map<TrackType, TreeMap<Long, List<Held>>> playlists = new HashMap<>();
    private final List<Held> multivariant = new ArrayList<>();
    private final Map<Part, List<Held>> parts = new IdentityHashMap<>();
    private final PriorityQueue<Held> deadlines =
            new PriorityQueue<>((a, b) -> Long.compare(a.deadlineNs, b.deadlineNs));
    private long nextTicket = 1;

    static long key(long msn, long part) {
        return (msn << PART_BITS) | part;
    }

    static long msnOf(long key) {
        return key >>> PART_BITS;
    }

    int size() {
        return byTicket.size();
    }

    Held holdPlaylist(TrackType track, long key, SkipRequest skip, long deadlineNs) {
        Held h = add(Kind.PLAYLIST, track, key, skip, deadlineNs, null);
        playlists
                .computeIfAbsent(track, t -> new TreeMap<>())
                .computeIfAbsent(key, k -> new ArrayList<>())
                .add(h);
        return h;
    }

    Held holdMultivariant(long deadlineNs) {
        Held h = add(Kind.MULTIVARIANT, null, 0, SkipRequest.NONE, deadlineNs, null);
        multivariant.add(h);
        return h;
    }

    Held holdPart(Part part, long deadlineNs) {
        Held h = add(Kind.PART, part.track(), part.id(), SkipRequest.NONE, deadlineNs, part);
        parts.computeIfAbsent(part, p -> new ArrayList<>()).add(h);
        return h;
    }

    private Held add(Kind kind, TrackType track, long key, SkipRequest skip, long deadlineNs, Part part) {
        Held h = new Held(nextTicket++, kind, track, key, skip, deadlineNs, part);
        byTicket.put(h.ticket, h);
        deadlines.add(h);
        return h;
    }

    /** Forgets a request whose client went away. */
    void cancel(long ticket) {
        Held h = byTicket.remove(ticket);
        if (h == null) {
            return;
        }
        h.done = true;
        switch (h.kind) {
            case PLAYLIST -> {
                TreeMap<Long, List<Held>> map = playlists.get(h.track);
                List<Held> list = map.get(h.key);
                list.remove(h);
                if (list.isEmpty()) {
                    map.remove(h.key);
                }
            }
            case MULTIVARIANT -> multivariant.remove(h);
            case PART -> {
                List<Held> list = parts.get(h.part);
                list.remove(h);
                if (list.isEmpty()) {
                    parts.remove(h.part);
                }
            }
        }
    }

    /** Removes and returns the playlist waits of {@code track} satisfied by {@code stateKey}. */
    List<Held> releasePlaylists(TrackType track, long stateKey) {
        TreeMap<Long, List<Held>> map = playlists.get(track);
        if (map == null || map.isEmpty() || map.firstKey() > stateKey) {
            return List.of();
        }
        List<Held> out = new ArrayList<>();
        while (!map.isEmpty() && map.firstKey() <= stateKey) {
            for (Held h : map.pollFirstEntry().getValue()) {
                finish(h);
                out.add(h);
            }
        }
        return out;
    }

    /**
     * Segment {@code msn} completed with {@code partCount} parts: a wait for a part index past
     * its last now waits for part 0 of the next segment (§6.2.5.2).
     */
    void remapPastLastPart(TrackType track, long msn, int partCount) {
        TreeMap<Long, List<Held>> map = playlists.get(track);
        if (map == null) {
            return;
        }
        var past = map.subMap(key(msn, partCount), true, key(msn, WHOLE_SEGMENT - 1), true);
        if (past.isEmpty()) {
            return;
        }
        List<Held> moved = new ArrayList<>();
        past.values().forEach(moved::addAll);
        past.clear();
        long target = key(msn + 1, 0);
        for (Held h : moved) {
            h.key = target;
        }
        map.computeIfAbsent(target, k -> new ArrayList<>()).addAll(moved);
    }

    List<Held> releaseMultivariant() {
        if (multivariant.isEmpty()) {
            return List.of();
        }
        List<Held> out = new ArrayList<>(multivariant);
        multivariant.clear();
        out.forEach(this::finish);
        return out;
    }

    /** The requests following {@code part}; removed if {@code complete}. */
    List<Held> partWaiters(Part part, boolean complete) {
        List<Held> list = complete ? parts.remove(part) : parts.get(part);
        if (list == null) {
            return List.of();
        }
        if (complete) {
            list.forEach(this::finish);
        }
        return list;
    }

    /** Removes and returns every playlist wait (the stream ended). */
    List<Held> releaseAllPlaylists() {
        List<Held> out = new ArrayList<>();
        for (TreeMap<Long, List<Held>> map : playlists.values()) {
            map.values().forEach(out::addAll);
            map.clear();
        }
        out.forEach(this::finish);
        return out;
    }

    /** Removes and returns the requests whose deadline is at or before {@code nowNs}. */
    List<Held> expire(long nowNs) {
        List<Held> out = new ArrayList<>();
        while (!deadlines.isEmpty() && deadlines.peek().deadlineNs - nowNs <= 0) {
            Held h = deadlines.poll();
            if (!h.done) {
                cancel(h.ticket);
                out.add(h);
            }
        }
        return out;
    }

    long nextDeadlineNs() {
        while (!deadlines.isEmpty() && deadlines.peek().done) {
            deadlines.poll();
        }
        return deadlines.isEmpty() ? Long.MAX_VALUE : deadlines.peek().deadlineNs;
    }

    private void finish(Held h) {
        h.done = true;
        byTicket.remove(h.ticket);
    }
}
