package io.tern.nostr.testing;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.filter.TagCondition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Random events and filters over small vocabularies, so that filters often match: a handful of
 * authors, kinds from every class, a few tag values, created_at in a narrow window with ties.
 */
public final class Generators {
    public static final List<Keys> AUTHORS = List.of(Keys.fromSeed(11), Keys.fromSeed(12), Keys.fromSeed(13));
    private static final int[] KINDS = {0, 1, 3, 5, 7, 10002, 30023, 30000, 40000};
    private static final String[] VALUES = {"a", "b", "c", "", "é\n\"x\""};
    private static final String[] LETTERS = {"t", "d", "e", "p", "T"};

    private Generators() {}

    /** A signed event; kind 5 events delete earlier ids or addresses of their author from {@code earlier}. */
    public static Event event(Random r, long baseTime, List<Event> earlier) {
        Keys author = AUTHORS.get(r.nextInt(AUTHORS.size()));
        int kind = KINDS[r.nextInt(KINDS.length)];
        List<List<String>> tags = new ArrayList<>();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            String letter = LETTERS[r.nextInt(LETTERS.length)];
            if (letter.equals("e") && !earlier.isEmpty()) {
                tags.add(List.of("e", earlier.get(r.nextInt(earlier.size())).id()));
            } else if (letter.equals("p")) {
                tags.add(List.of("p", AUTHORS.get(r.nextInt(AUTHORS.size())).pubkey()));
            } else {
                tags.add(List.of(letter, VALUES[r.nextInt(VALUES.length)]));
            }
        }
        if (kind == 5 && !earlier.isEmpty()) {
            Event target = earlier.get(r.nextInt(earlier.size()));
            if (target.address() != null && r.nextBoolean()) {
                tags.add(List.of("a", target.address()));
            } else {
                tags.add(List.of("e", target.id()));
            }
        }
        if (r.nextInt(8) == 0) {
            tags.add(List.of("expiration", Long.toString(baseTime + r.nextInt(20))));
        }
        return author.sign(baseTime + r.nextInt(12), kind, tags, "c" + r.nextInt(5));
    }

    public static Filter filter(Random r, long baseTime, List<Event> known) {
        Set<String> ids = null;
        Set<String> authors = null;
        int[] kinds = null;
        List<TagCondition> tags = new ArrayList<>();
        if (r.nextInt(5) == 0 && !known.isEmpty()) {
            ids = new HashSet<>();
            for (int i = r.nextInt(3); i >= 0; i--) {
                ids.add(known.get(r.nextInt(known.size())).id());
            }
        }
        if (r.nextInt(3) == 0) {
            authors = new HashSet<>();
            for (int i = r.nextInt(2); i >= 0; i--) {
                authors.add(AUTHORS.get(r.nextInt(AUTHORS.size())).pubkey());
            }
        }
        if (r.nextInt(2) == 0) {
            kinds = new int[1 + r.nextInt(3)];
            for (int i = 0; i < kinds.length; i++) {
                kinds[i] = KINDS[r.nextInt(KINDS.length)];
            }
        }
        if (r.nextInt(3) == 0) {
            String letter = LETTERS[r.nextInt(LETTERS.length)];
            Set<String> values = new HashSet<>();
            if (letter.equals("e") || letter.equals("p")) {
                values.add(
                        letter.equals("p")
                                ? AUTHORS.get(r.nextInt(AUTHORS.size())).pubkey()
                                : known.isEmpty()
                                        ? "f".repeat(64)
                                        : known.get(r.nextInt(known.size())).id());
            } else {
                for (int i = r.nextInt(2); i >= 0; i--) {
                    values.add(VALUES[r.nextInt(VALUES.length)]);
                }
            }
            tags.add(new TagCondition(letter.charAt(0), values));
        }
        if (r.nextInt(12) == 0) {
            tags.add(new TagCondition('t', Set.of()));
        }
        long since = r.nextInt(3) == 0 ? baseTime + r.nextInt(12) : 0;
        long until = r.nextInt(3) == 0 ? baseTime + r.nextInt(12) : Long.MAX_VALUE;
        int limit = r.nextInt(3) == 0 ? r.nextInt(6) : 1000;
        return new Filter(ids, authors, kinds, tags, since, until, limit);
    }
}
