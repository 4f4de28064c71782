package io.tern.nostr.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.message.ClientMessage.Answer;
import io.tern.nostr.message.ClientMessage.Invalid;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClientMessageDecoderTest {
    static final String ID = "a".repeat(64);
    static final String EVENT = "{\"id\":\"" + ID + "\",\"pubkey\":\"" + "b".repeat(64)
            + "\",\"created_at\":1,\"kind\":1,\"tags\":[],\"content\":\"x\",\"sig\":\"" + "c".repeat(128) + "\"}";

    private final ClientMessageDecoder decoder = new ClientMessageDecoder(3, 64);

    ClientMessage decode(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return decoder.decode(b, 0, b.length);
    }

    @Test
    void decodesEachVerb() {
        assertThat(decode("[\"EVENT\"," + EVENT + "]")).isInstanceOf(ClientMessage.EventMessage.class);
        assertThat(decode("[\"AUTH\"," + EVENT + "]")).isInstanceOf(ClientMessage.Auth.class);
        ClientMessage.Req req = (ClientMessage.Req) decode("[\"REQ\",\"s1\",{\"kinds\":[1]},{}]");
        assertThat(req.subscriptionId()).isEqualTo("s1");
        assertThat(req.filters()).hasSize(2);
        ClientMessage.Count count = (ClientMessage.Count) decode("[\"COUNT\",\"c\",{}]");
        assertThat(count.subscriptionId()).isEqualTo("c");
        assertThat(((ClientMessage.Close) decode("[\"CLOSE\",\"s1\"]")).subscriptionId())
                .isEqualTo("s1");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not json|invalid: malformed JSON",
                "{}|invalid: a message must be a JSON array",
                "\"EVENT\"|invalid: a message must be a JSON array",
                "[]|invalid: a message must start with its type as a string",
                "[1]|invalid: a message must start with its type as a string",
                "[\"PING\"]|invalid: unknown message type \"PING\"",
                "[\"event\",{}]|invalid: unknown message type \"event\"",
                "[\"EVENT\"]|invalid: EVENT must carry an event object",
                "[\"EVENT\",[]]|invalid: EVENT must carry an event object",
                "[\"EVENT\",{\"kind\":1}]|invalid: missing field id",
                "[\"REQ\"]|invalid: a subscription id must be a string of 1 to 64 characters",
                "[\"REQ\",\"\",{}]|invalid: a subscription id must be a string of 1 to 64 characters",
                "[\"REQ\",5,{}]|invalid: a subscription id must be a string of 1 to 64 characters",
                "[\"CLOSE\"]|invalid: a subscription id must be a string of 1 to 64 characters",
                "[\"CLOSE\",\"s\",1]|invalid: unexpected data after the message",
            })
    void answersWithANotice(String message, String reason) {
        ClientMessage m = decode(message);
        assertThat(m).isInstanceOf(Invalid.class);
        Invalid i = (Invalid) m;
        assertThat(i.answer()).isEqualTo(Answer.NOTICE);
        assertThat(i.reason()).isEqualTo(reason);
    }

    @Test
    void answersWithClosedOnceTheSubscriptionIdIsKnown() {
        assertClosed(decode("[\"REQ\",\"s\"]"), "s", "invalid: at least one filter is required");
        assertClosed(decode("[\"REQ\",\"s\",1]"), "s", "invalid: filters must be objects");
        assertClosed(decode("[\"REQ\",\"s\",{\"kinds\":\"x\"}]"), "s", "invalid: kinds must be");
        assertClosed(decode("[\"REQ\",\"s\",{},{},{},{}]"), "s", "invalid: too many filters (at most 3)");
        assertClosed(decode("[\"COUNT\",\"s\",{\"bogus\":1}]"), "s", "invalid: unsupported filter field");
        assertClosed(decode("[\"REQ\",\"s\",{\"kinds\":[1}]"), "s", "invalid: malformed JSON");
        assertClosed(decode("[\"REQ\",\"s\",{}"), "s", "invalid: malformed JSON");
        assertClosed(decode("[\"REQ\",\"s\",{}] []"), "s", "invalid: unexpected data after the message");
    }

    @Test
    void answersWithOkOnceTheEventIdIsKnown() {
        Invalid bad = (Invalid) decode("[\"EVENT\"," + EVENT.replace("\"kind\":1", "\"kind\":-1") + "]");
        assertThat(bad.answer()).isEqualTo(Answer.OK);
        assertThat(bad.ref()).isEqualTo(ID);
        assertThat(bad.reason()).isEqualTo("invalid: kind must be between 0 and 65535");
        Invalid trailing = (Invalid) decode("[\"EVENT\"," + EVENT + ",1]");
        assertThat(trailing.answer()).isEqualTo(Answer.OK);
        assertThat(trailing.reason()).isEqualTo("invalid: unexpected data after the message");
    }

    @Test
    void subscriptionIdsCountCharactersNotBytes() {
        String sixtyFour = "é".repeat(64);
        assertThat(decode("[\"REQ\",\"" + sixtyFour + "\",{}]")).isInstanceOf(ClientMessage.Req.class);
        assertThat(decode("[\"REQ\",\"" + sixtyFour + "x\",{}]")).isInstanceOf(Invalid.class);
    }

    @Test
    void rejectsDeepNesting() {
        ClientMessage m = decode("[\"REQ\",\"s\",{\"#t\":[[[[[[[[\"x\"]]]]]]]]}]");
        assertThat(m).isInstanceOf(Invalid.class);
    }

    private static void assertClosed(ClientMessage m, String subscriptionId, String reasonStart) {
        assertThat(m).isInstanceOf(Invalid.class);
        Invalid i = (Invalid) m;
        assertThat(i.answer()).isEqualTo(Answer.CLOSED);
        assertThat(i.ref()).isEqualTo(subscriptionId);
        assertThat(i.reason()).startsWith(reasonStart);
    }
}
