package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NIP-09 through the engine (the store rules themselves are in the store contract tests). */
class DeletionTest extends ClientFixture {
    private final Keys mallory = Keys.fromSeed(3);

    @Test
    void theAuthorDeletesByIdAndTheEventCannotComeBack() {
        Event note = alice.sign(now - 1, 1, List.of(), "oops");
        relay.publishOk(conn, note);
        Event deletion = alice.sign(now, 5, List.of(List.of("e", note.id())), "");
        assertThat(relay.publishOk(conn, deletion)).containsExactly("OK", deletion.id(), true, "");
        assertThat(relay.storedIds(conn, "{\"kinds\":[1]}")).isEmpty();
        assertThat(relay.storedIds(conn, "{\"kinds\":[5]}")).containsExactly(deletion.id());
        assertThat(relay.publishOk(conn, note))
                .containsExactly("OK", note.id(), false, "blocked: this event was deleted by its author");
    }

    @Test
    void nobodyElseCanDelete() {
        Event note = alice.sign(now - 1, 1, List.of(), "mine");
        relay.publishOk(conn, note);
        relay.publishOk(conn, mallory.sign(now, 5, List.of(List.of("e", note.id())), ""));
        assertThat(relay.storedIds(conn, "{\"kinds\":[1]}")).containsExactly(note.id());
    }

    @Test
    void deletionByAddressCoversVersionsUpToItsCreatedAt() {
        Event v1 = alice.sign(now - 10, 30023, List.of(List.of("d", "post")), "v1");
        relay.publishOk(conn, v1);
        String address = "30023:" + alice.pubkey() + ":post";
        relay.publishOk(conn, alice.sign(now - 5, 5, List.of(List.of("a", address)), ""));
        assertThat(relay.storedIds(conn, "{\"kinds\":[30023]}")).isEmpty();
        Event beforeDeletion = alice.sign(now - 6, 30023, List.of(List.of("d", "post")), "older");
        assertThat(relay.publishOk(conn, beforeDeletion).get(3))
                .isEqualTo("blocked: this event was deleted by its author");
        Event afterDeletion = alice.sign(now, 30023, List.of(List.of("d", "post")), "v2");
        assertThat(relay.publishOk(conn, afterDeletion)).containsExactly("OK", afterDeletion.id(), true, "");
        assertThat(relay.storedIds(conn, "{\"kinds\":[30023]}")).containsExactly(afterDeletion.id());
    }

    @Test
    void aDeletionRequestCannotBeDeleted() {
        Event deletion = alice.sign(now - 1, 5, List.of(List.of("e", "f".repeat(64))), "");
        relay.publishOk(conn, deletion);
        relay.publishOk(conn, alice.sign(now, 5, List.of(List.of("e", deletion.id())), ""));
        assertThat(relay.storedIds(conn, "{\"ids\":[\"" + deletion.id() + "\"]}"))
                .containsExactly(deletion.id());
    }

    @Test
    void withNip09OffAKind5IsJustAnEvent() {
        NostrHarness off = new NostrHarness(
                NostrConfig.builder().nip09(false).build(), new io.tern.nostr.store.MemoryEvents(false));
        long c = off.client("192.0.2.1");
        Event note = alice.sign(now - 1, 1, List.of(), "stays");
        off.publish(c, note);
        off.publish(c, alice.sign(now, 5, List.of(List.of("e", note.id())), ""));
        off.take(c);
        off.send(c, "[\"REQ\",\"q\",{\"kinds\":[1]}]");
        assertThat(off.takeParsed(c)).hasSize(2);
    }
}
