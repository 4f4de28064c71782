package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.message.Prefix;
import io.tern.nostr.testing.Generators;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import io.tern.nostr.testing.TestJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Random sessions against the engine — valid, corrupted and garbage messages from several
 * connections, interleaved with store work and time — never raise, never count an internal
 * error, answer every EVENT with exactly one OK carrying a NIP-01 prefix when refused, and store
 * only events that verify.
 */
class EngineFuzzTest {
    private static final String[] GARBAGE = {
        "",
        "[",
        "[]",
        "{}",
        "null",
        "[\"EVENT\"]",
        "[\"REQ\",\"\",{}]",
        "[\"REQ\",\"x\",{\"kinds\":[\"a\"]}]",
        "[\"CLOSE\",1]",
        "[\"COUNT\",\"c\"]",
        "[\"AUTH\",{}]",
        "\u0000\u0001",
        "[\"EVENT\",{\"id\":1}]",
        "[\"REQ\",\"s\",{\"#e\":[\"zz\"]}]",
        "[\"REQ\",\"s\",{\"limit\":-1}]",
        "[[[[[[[[[[[[]]]]]]]]]]]]"
    };

    @Property(tries = 40)
    void randomSessions(@ForAll long seed) {
        Random r = new Random(seed);
        NostrHarness relay = NostrHarness.withDefaults();
        relay.autoSettle = false;
        long[] conns = {relay.connect("192.0.2.1"), relay.connect("192.0.2.2"), relay.connect("192.0.2.3")};
        for (long c : conns) {
            relay.take(c);
        }
        List<Event> known = new ArrayList<>();
        List<String> validIds = new ArrayList<>();
        int events = 0;
        for (int step = 0; step < 120; step++) {
            long c = conns[r.nextInt(conns.length)];
            switch (r.nextInt(8)) {
                case 0, 1 -> {
                    Event e = Generators.event(r, relay.clock.epochSeconds() - 5, known);
                    known.add(e);
                    validIds.add(e.id());
                    relay.publish(c, e);
                    events++;
                }
                case 2 -> {
                    Event e = Generators.event(r, relay.clock.epochSeconds() - 5, known);
                    // (a corruption that happens to rewrite a byte with itself leaves a valid event)
                    validIds.add(e.id());
                    String json = Keys.eventMessage(e);
                    int at = 10 + r.nextInt(json.length() - 12);
                    String corrupted = json.substring(0, at) + (char) ('0' + r.nextInt(40)) + json.substring(at + 1);
                    relay.send(c, corrupted);
                }
                case 3 -> relay.send(c, "[\"REQ\",\"s" + r.nextInt(4) + "\"," + filterJson(r, known) + "]");
                case 4 -> relay.send(c, "[\"CLOSE\",\"s" + r.nextInt(4) + "\"]");
                case 5 -> relay.send(c, "[\"COUNT\",\"n" + r.nextInt(2) + "\"," + filterJson(r, known) + "]");
                case 6 -> relay.send(c, GARBAGE[r.nextInt(GARBAGE.length)]);
                default -> {
                    if (r.nextBoolean()) {
                        relay.settle();
                    } else {
                        relay.advanceMillis(r.nextInt(2000));
                    }
                }
            }
        }
        relay.settle();
        int oks = 0;
        for (long c : conns) {
            for (List<Object> m : relay.takeParsed(c)) {
                String verb = (String) m.get(0);
                assertThat(verb).isIn("OK", "EVENT", "EOSE", "CLOSED", "NOTICE", "COUNT");
                if (verb.equals("OK")) {
                    oks++;
                    if (Boolean.FALSE.equals(m.get(2))) {
                        assertThat(Prefix.of((String) m.get(3))).as("%s", m).isNotNull();
                    }
                }
                if (verb.equals("CLOSED")) {
                    assertThat(Prefix.of((String) m.get(2))).as("%s", m).isNotNull();
                }
            }
        }
        assertThat(relay.engine.counters().internalErrors()).isZero();
        // every valid EVENT got its OK (corrupted ones may or may not have a readable id)
        assertThat(oks).isGreaterThanOrEqualTo(events);
        assertThat(relay.engine.pendingStoreRequests()).isZero();
        // nothing that was not correctly signed got into the store
        relay.events
                .query(io.tern.nostr.filter.Filter.any(), 0)
                .forEach(e -> assertThat(validIds).contains(e.id()));
    }

    private static String filterJson(Random r, List<Event> known) {
        StringBuilder sb = new StringBuilder("{");
        if (r.nextBoolean()) {
            sb.append("\"kinds\":[")
                    .append(new int[] {0, 1, 5, 25050, 30023}[r.nextInt(5)])
                    .append("],");
        }
        if (r.nextBoolean() && !known.isEmpty()) {
            sb.append("\"authors\":[\"")
                    .append(known.get(r.nextInt(known.size())).pubkey())
                    .append("\"],");
        }
        sb.append("\"limit\":").append(r.nextInt(5)).append('}');
        return TestJson.parse(sb.toString()) != null ? sb.toString() : "{}";
    }
}
