package io.tern.bench.jmh.nostr;

import io.tern.nostr.crypto.Secp256k1JniVerifier;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventHasher;
import io.tern.nostr.event.Hex;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/** Signed events for the Nostr benchmarks: a short note, a long article, a rendezvous offer. */
final class NostrFixtures {
    static final long NOW = 1_700_000_000L;
    static final Secp256k1JniVerifier SECP = load();

    private NostrFixtures() {}

    private static Secp256k1JniVerifier load() {
        try {
            return Secp256k1JniVerifier.load();
        } catch (Exception e) {
            throw new IllegalStateException("libsecp256k1 must load for the benchmarks", e);
        }
    }

    static byte[] secret(long seed) {
        byte[] sk = new byte[32];
        new Random(seed).nextBytes(sk);
        sk[0] &= 0x7f; // below the group order
        sk[31] |= 1; // not zero
        return sk;
    }

    static Event sign(byte[] secret, long createdAt, int kind, List<List<String>> tags, String content) {
        String pubkey = Hex.encode(SECP.xOnlyPublicKey(secret));
        byte[] id = new EventHasher().id(pubkey, createdAt, kind, tags, content);
        byte[] sig = SECP.sign(id, secret, new byte[32]);
        return Event.of(Hex.encode(id), pubkey, createdAt, kind, tags, content, Hex.encode(sig));
    }

    /** A kind 1 note: 140 characters, two tags. */
    static Event note() {
        return sign(
                secret(1),
                NOW,
                1,
                List.of(List.of("e", "ab".repeat(32), "wss://relay.example"), List.of("t", "tern")),
                "Nostr relays as rendezvous for peer-assisted live video: announce, offer, answer, done. "
                        + "Escapes \"quoted\" and\nnew lines, é and ✓.");
    }

    /** A kind 30023 article: about 4 KB of mixed text. */
    static Event article() {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < 4000) {
            sb.append("Paragraph with \"quotes\", tabs\t, accents é, CJK 中文 and an emoji \uD83E\uDD85.\n\n");
        }
        return sign(
                secret(2),
                NOW,
                30023,
                List.of(List.of("d", "a-slug"), List.of("title", "On relays"), List.of("t", "nostr")),
                sb.toString());
    }

    /** A kind 25050 WebRTC offer to a room: the rendezvous traffic. */
    static Event offer(String room) {
        return offer(room, 4611731400430051336L);
    }

    /** The offer of session {@code sessionId}: offers of distinct sessions are distinct events. */
    static Event offer(String room, long sessionId) {
        return sign(
                secret(3),
                NOW,
                25050,
                List.of(List.of("p", room)),
                ("v=0\r\no=- " + sessionId + " 2 IN IP4 127.0.0.1\r\n").repeat(8));
    }

    static byte[] eventMessage(Event e) {
        return ("[\"EVENT\"," + new String(e.json(), StandardCharsets.UTF_8) + "]").getBytes(StandardCharsets.UTF_8);
    }
}
