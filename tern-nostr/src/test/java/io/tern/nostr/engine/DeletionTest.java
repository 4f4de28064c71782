package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.RelayHarness;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** NIP-09 through the engine (the store rules themselves are in the store contract tests). */
class DeletionTest {
    private final Keys alice = Keys.fromSeed(1);
    private final Keys mallory = Keys.fromSeed(3);
    private RelayHarness relay;
    private long conn;
    private long now;

    @BeforeEach
    void setUp() {
        relay = RelayHarness.withDefaults();
        conn = relay.connect();
        relay.take(conn);
        now = relay.clock.epochSeconds();
    }

    private List<Object> publish(Event e) {
        relay.publish(conn, e);
        return relay.takeOne(conn);
    }

    private List<Object> storedIds(String filter) {
        relay.send(conn, "[\"REQ\",\"q\"," + filter + "]");
        List<List<Object>> messages = relay.takeParsed(conn);
        relay.send(conn, "[\"CLOSE\",\"q\"]");
        return messages.stream()
                .filter(m -> m.get(0).equals("EVENT"))
                .map(m -> (Object) ((Map<?, ?>) m.get(2)).get("id"))
                .toList();
    }

    @Test
    void theAuthorDeletesByIdAndTheEventCannotComeBack() {
        Event note = alice.sign(now - 1, 1, List.of(), "oops");
        publish(note);
        Event deletion = alice.sign(now, 5, List.of(List.of("e", note.id())), "");
        assertThat(publish(deletion)).containsExactly("OK", deletion.id(), true, "");
        assertThat(storedIds("{\"kinds\":[1]}")).isEmpty();
        assertThat(storedIds("{\"kinds\":[5]}")).containsExactly(deletion.id());
        assertThat(publish(note))
                .containsExactly("OK", note.id(), false, "blocked: this event was deleted by its author");
    }

    @Test
    void nobodyElseCanDelete() {
        Event note = alice.sign(now - 1, 1, List.of(), "mine");
        publish(note);
        publish(mallory.sign(now, 5, List.of(List.of("e", note.id())), ""));
        assertThat(storedIds("{\"kinds\":[1]}")).containsExactly(note.id());
    }

    @Test
    void deletionByAddressCoversVersionsUpToItsCreatedAt() {
        Event v1 = alice.sign(now - 10, 30023, List.of(List.of("d", "post")), "v1");
        publish(v1);
        String address = "30023:" + alice.pubkey() + ":post";
        publish(alice.sign(now - 5, 5, List.of(List.of("a", address)), ""));
        assertThat(storedIds("{\"kinds\":[30023]}")).isEmpty();
        Event beforeDeletion = alice.sign(now - 6, 30023, List.of(List.of("d", "post")), "older");
        assertThat(publish(beforeDeletion).get(3)).isEqualTo("blocked: this event was deleted by its author");
        Event afterDeletion = alice.sign(now, 30023, List.of(List.of("d", "post")), "v2");
        assertThat(publish(afterDeletion)).containsExactly("OK", afterDeletion.id(), true, "");
        assertThat(storedIds("{\"kinds\":[30023]}")).containsExactly(afterDeletion.id());
    }

    @Test
    void aDeletionRequestCannotBeDeleted() {
        Event deletion = alice.sign(now - 1, 5, List.of(List.of("e", "f".repeat(64))), "");
        publish(deletion);
        publish(alice.sign(now, 5, List.of(List.of("e", deletion.id())), ""));
        assertThat(storedIds("{\"ids\":[\"" + deletion.id() + "\"]}")).containsExactly(deletion.id());
    }

    @Test
    void withNip09OffAKind5IsJustAnEvent() {
        RelayHarness off = new RelayHarness(
                RelayConfig.builder().nip09(false).build(), new io.tern.nostr.store.MemoryEvents(false));
        long c = off.connect();
        off.take(c);
        Event note = alice.sign(now - 1, 1, List.of(), "stays");
        off.publish(c, note);
        off.publish(c, alice.sign(now, 5, List.of(List.of("e", note.id())), ""));
        off.take(c);
        off.send(c, "[\"REQ\",\"q\",{\"kinds\":[1]}]");
        assertThat(off.takeParsed(c)).hasSize(2);
    }
}
