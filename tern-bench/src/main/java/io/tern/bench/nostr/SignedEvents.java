package io.tern.bench.nostr;

import io.tern.nostr.crypto.Secp256k1JniVerifier;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventHasher;
import io.tern.nostr.event.Hex;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Events signed before a phase starts (with libsecp256k1), so that signing never counts against
 * the relay's figures: each is kept as the client's EVENT message, ready to send.
 */
final class SignedEvents {
    /** Authors of the stored events; each has events/AUTHORS of them. */
    static final int AUTHORS = 100;
    /** Distinct {@code t} tag values. */
    static final int TOPICS = 20;

    private SignedEvents() {}

    /** One author's keys. */
    record Author(byte[] secret, String pubkey) {}

    static List<Author> authors(Secp256k1JniVerifier secp, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Author> authors = new ArrayList<>();
        while (authors.size() < count) {
            byte[] secret = new byte[32];
            for (int i = 0; i < 32; i++) {
                secret[i] = (byte) random.nextInt(256);
            }
            secret[0] &= 0x7F; // below the curve order
            if (secret[0] == 0) {
                continue;
            }
            authors.add(new Author(secret, Hex.encode(secp.xOnlyPublicKey(secret))));
        }
        return authors;
    }

    static Event sign(
            Secp256k1JniVerifier secp,
            Author author,
            long createdAt,
            int kind,
            List<List<String>> tags,
            String content) {
        byte[] id = new EventHasher().id(author.pubkey(), createdAt, kind, tags, content);
        byte[] sig = secp.sign(id, author.secret(), null);
        return Event.of(Hex.encode(id), author.pubkey(), createdAt, kind, tags, content, Hex.encode(sig));
    }

    static byte[] message(Event event) {
        return ("[\"EVENT\"," + new String(event.json(), StandardCharsets.UTF_8) + "]")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {@code count} kind-1 notes by {@link #AUTHORS} authors, tagged with one of {@link #TOPICS}
     * topics, created over the last ten days (so REQs with {@code until} have something to cut),
     * with about 150 characters of content: signed on every core.
     */
    static List<byte[]> notes(Secp256k1JniVerifier secp, List<Author> authors, int count, long nowSeconds)
            throws Exception {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<byte[]>>> parts = new ArrayList<>();
            int per = (count + threads - 1) / threads;
            for (int t = 0; t < threads; t++) {
                int from = t * per;
                int to = Math.min(count, from + per);
                parts.add(pool.submit(() -> {
                    List<byte[]> out = new ArrayList<>(to - from);
                    SplittableRandom random = new SplittableRandom(from);
                    for (int i = from; i < to; i++) {
                        String content = "note " + i + " "
                                + Long.toHexString(random.nextLong()).repeat(8);
                        long createdAt = nowSeconds - random.nextInt(10 * 86_400);
                        List<List<String>> tags = List.of(List.of("t", "t" + (i % TOPICS)));
                        out.add(message(sign(secp, authors.get(i % authors.size()), createdAt, 1, tags, content)));
                    }
                    return out;
                }));
            }
            List<byte[]> all = new ArrayList<>(count);
            for (Future<List<byte[]>> part : parts) {
                all.addAll(part.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
