package io.tern.nostr.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Hex;
import io.tern.nostr.message.ClientMessage.Invalid;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * No input makes the decoder throw, and every answer is well formed: OK only with a real event
 * id, CLOSED only with a valid subscription id, and every reason carries a NIP-01 prefix.
 */
class ClientMessageDecoderFuzzTest {
    private static final String EVENT = "{\"id\":\"" + "a".repeat(64) + "\",\"pubkey\":\"" + "b".repeat(64)
            + "\",\"created_at\":1700000000,\"kind\":30023,\"tags\":[[\"d\",\"x\"],[\"e\",\"" + "c".repeat(64)
            + "\"],[\"expiration\",\"1800000000\"]],\"content\":\"h\\u00e9llo\\n\\\"w\\\"\",\"sig\":\""
            + "d".repeat(128) + "\"}";
    private static final List<String> VALID = List.of(
            "[\"EVENT\"," + EVENT + "]",
            "[\"AUTH\"," + EVENT + "]",
            "[\"REQ\",\"sub-1\",{\"kinds\":[1,7],\"authors\":[\"" + "b".repeat(64) + "\"],\"limit\":10},"
                    + "{\"#e\":[\"" + "c".repeat(64) + "\"],\"since\":5,\"until\":9}]",
            "[\"COUNT\",\"c\",{\"#t\":[\"x\",\"y\"]},{\"ids\":[\"" + "a".repeat(64) + "\"]}]",
            "[\"CLOSE\",\"sub-1\"]");

    private final ClientMessageDecoder decoder = new ClientMessageDecoder(8, 64);

    @Property(tries = 2000)
    void arbitraryBytes(@ForAll @Size(max = 300) byte[] bytes) {
        check(bytes);
    }

    @Property(tries = 3000)
    void mutatedValidMessages(@ForAll("mutated") byte[] bytes) {
        check(bytes);
    }

    @Property(tries = 2000)
    void arbitraryJsonShapes(@ForAll("messages") String json) {
        check(json.getBytes(StandardCharsets.UTF_8));
    }

    private void check(byte[] bytes) {
        ClientMessage m = decoder.decode(bytes, 0, bytes.length);
        assertThat(m).isNotNull();
        if (m instanceof Invalid i) {
            assertThat(Prefix.of(i.reason())).as(i.reason()).isNotNull();
            switch (i.answer()) {
                case OK -> assertThat(Hex.isLowerHex(i.ref(), 64)).isTrue();
                case CLOSED -> assertThat(i.ref()).isNotEmpty().hasSizeLessThanOrEqualTo(128);
                case NOTICE -> assertThat(i.ref()).isNull();
            }
        }
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        Arbitrary<byte[]> base = Arbitraries.of(VALID).map(s -> s.getBytes(StandardCharsets.UTF_8));
        return Combinators.combine(
                        base,
                        Arbitraries.integers().between(0, 4),
                        Arbitraries.integers().between(0, 100_000),
                        Arbitraries.bytes(),
                        Arbitraries.integers().between(1, 40))
                .as((b, op, pos, value, len) -> mutate(b, op, pos % (b.length + 1), value, len));
    }

    private static byte[] mutate(byte[] b, int op, int pos, byte value, int len) {
        return switch (op) {
            case 0 -> { // replace a byte
                byte[] c = b.clone();
                c[Math.min(pos, c.length - 1)] = value;
                yield c;
            }
            case 1 -> java.util.Arrays.copyOf(b, pos); // truncate
            case 2 -> { // delete a range
                int end = Math.min(b.length, pos + len);
                byte[] c = new byte[b.length - (end - pos)];
                System.arraycopy(b, 0, c, 0, pos);
                System.arraycopy(b, end, c, pos, b.length - end);
                yield c;
            }
            case 3 -> { // insert a byte
                byte[] c = new byte[b.length + 1];
                System.arraycopy(b, 0, c, 0, pos);
                c[pos] = value;
                System.arraycopy(b, pos, c, pos + 1, b.length - pos);
                yield c;
            }
            default -> { // duplicate a range
                int end = Math.min(b.length, pos + len);
                byte[] c = new byte[b.length + (end - pos)];
                System.arraycopy(b, 0, c, 0, end);
                System.arraycopy(b, pos, c, end, b.length - pos);
                yield c;
            }
        };
    }

    @Provide
    Arbitrary<String> messages() {
        Arbitrary<String> verb =
                Arbitraries.of("\"EVENT\"", "\"REQ\"", "\"COUNT\"", "\"CLOSE\"", "\"AUTH\"", "\"X\"", "1");
        return Combinators.combine(verb, json(3).list().ofMaxSize(4))
                .as((v, rest) -> "[" + v + (rest.isEmpty() ? "" : "," + String.join(",", rest)) + "]");
    }

    private Arbitrary<String> json(int depth) {
        Arbitrary<String> scalar = Arbitraries.oneOf(
                Arbitraries.strings()
                        .ofMaxLength(8)
                        .map(s -> "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""),
                Arbitraries.of("\"" + "a".repeat(64) + "\"", "\"" + "f".repeat(128) + "\"", "\"sub\"", "\"#e\""),
                Arbitraries.longs().map(Object::toString),
                Arbitraries.of("1.5", "-0", "1e400", "true", "false", "null", "99999999999999999999999"));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<String> key = Arbitraries.of(
                "id",
                "pubkey",
                "created_at",
                "kind",
                "tags",
                "content",
                "sig",
                "ids",
                "authors",
                "kinds",
                "#t",
                "#e",
                "since",
                "until",
                "limit",
                "x");
        Arbitrary<String> object = Combinators.combine(key, json(depth - 1))
                .as((k, v) -> "\"" + k + "\":" + v)
                .list()
                .ofMaxSize(8)
                .map(l -> "{" + String.join(",", l) + "}");
        Arbitrary<String> array = json(depth - 1).list().ofMaxSize(4).map(l -> "[" + String.join(",", l) + "]");
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, scalar), net.jqwik.api.Tuple.of(2, object), net.jqwik.api.Tuple.of(1, array));
    }
}
