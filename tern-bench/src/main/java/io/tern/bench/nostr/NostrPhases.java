package io.tern.bench.nostr;

import io.tern.bench.harness.sample.ProcStats;
import io.tern.bench.harness.server.ServerProcess;
import io.tern.netty.websocket.WebSocketClient;
import io.tern.nostr.crypto.Secp256k1JniVerifier;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The benchmark's phases, each against a running relay, each returning its figures: ingest of
 * pre-signed events, REQ to EOSE over what was stored, ephemeral fan-out, idle memory per
 * connection. Timing is the generator's monotonic clock; CPU and RSS come from /proc.
 */
final class NostrPhases {
    private static final long SELF = ProcessHandle.current().pid();
    private static final byte[] CONTENT_FIELD = "\"content\":\"".getBytes(StandardCharsets.US_ASCII);

    private NostrPhases() {}

    static List<BenchConnection> open(WebSocketClient client, URI uri, boolean greets, int count) throws Exception {
        List<BenchConnection> connections = new ArrayList<>(count);
        for (int from = 0; from < count; from += 256) {
            List<CompletableFuture<BenchConnection>> batch = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 256); i++) {
                batch.add(BenchConnection.open(client, uri, greets));
            }
            for (CompletableFuture<BenchConnection> opened : batch) {
                connections.add(opened.get(30, TimeUnit.SECONDS));
            }
        }
        return connections;
    }

    static void close(List<BenchConnection> connections) {
        connections.forEach(BenchConnection::close);
    }

    /**
     * Every event sent over {@code connectionCount} connections, at most {@code window} unanswered
     * on each; events per second counts the OK true answers from the first send to the last OK.
     */
    static Map<String, Object> ingest(
            WebSocketClient client,
            URI uri,
            boolean greets,
            ServerProcess relay,
            List<byte[]> events,
            int connectionCount,
            int window)
            throws Exception {
        List<BenchConnection> connections = open(client, uri, greets, connectionCount);
        AtomicInteger next = new AtomicInteger();
        LongAdder accepted = new LongAdder();
        LongAdder refused = new LongAdder();
        AtomicReference<String> firstRefusal = new AtomicReference<>();
        CountDownLatch answered = new CountDownLatch(events.size());
        for (BenchConnection connection : connections) {
            connection.handler((c, buf, offset, length) -> {
                if (!BenchConnection.startsWith(buf, offset, length, BenchConnection.OK_TRUE_PREFIX)) {
                    firstRefusal.compareAndSet(
                            null, new String(buf, offset, Math.min(length, 200), StandardCharsets.UTF_8));
                    return;
                }
                if (length > 73 && buf[offset + 73] == 't') {
                    accepted.increment();
                } else {
                    refused.increment();
                    firstRefusal.compareAndSet(
                            null, new String(buf, offset, Math.min(length, 200), StandardCharsets.UTF_8));
                }
                int i = next.getAndIncrement();
                if (i < events.size()) {
                    c.send(events.get(i));
                }
                answered.countDown();
            });
        }
        double serverCpu0 = relay.cpuSeconds();
        double selfCpu0 = ProcStats.cpuSeconds(SELF);
        long t0 = System.nanoTime();
        for (BenchConnection connection : connections) {
            for (int w = 0; w < window; w++) {
                int i = next.getAndIncrement();
                if (i < events.size()) {
                    connection.send(events.get(i));
                }
            }
        }
        boolean complete = answered.await(600, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - t0) / 1e9;
        double serverCpu = relay.cpuSeconds() - serverCpu0;
        double selfCpu = ProcStats.cpuSeconds(SELF) - selfCpu0;
        close(connections);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("events", events.size());
        figures.put("complete", complete);
        figures.put("accepted", accepted.sum());
        figures.put("refused", refused.sum());
        figures.put("firstRefusal", firstRefusal.get());
        figures.put("seconds", round(seconds));
        figures.put("eventsPerSecond", Math.round(accepted.sum() / seconds));
        figures.put("serverCpuSeconds", round(serverCpu));
        figures.put("serverCpuPerEventUs", round(serverCpu * 1e6 / Math.max(1, accepted.sum())));
        figures.put("generatorCpuSeconds", round(selfCpu));
        figures.put("serverRssMiB", round(relay.rssBytes() / 1048576.0));
        return figures;
    }

    /**
     * REQ after REQ on one connection, each waiting for its EOSE: four filter shapes over the
     * stored events (a kind, an author, a tag, a kind with {@code until}), each with {@code limit}.
     */
    static Map<String, Object> reqLatency(
            WebSocketClient client,
            URI uri,
            boolean greets,
            ServerProcess relay,
            List<SignedEvents.Author> authors,
            long nowSeconds,
            int warmup,
            int count,
            int limit)
            throws Exception {
        BenchConnection connection = open(client, uri, greets, 1).get(0);
        AtomicReference<CompletableFuture<Integer>> pending = new AtomicReference<>();
        AtomicInteger received = new AtomicInteger();
        connection.handler((c, buf, offset, length) -> {
            if (BenchConnection.startsWith(buf, offset, length, BenchConnection.EVENT)) {
                received.incrementAndGet();
            } else if (BenchConnection.startsWith(buf, offset, length, BenchConnection.EOSE)) {
                pending.get().complete(received.getAndSet(0));
            } else {
                pending.get()
                        .completeExceptionally(
                                new IllegalStateException(new String(buf, offset, length, StandardCharsets.UTF_8)));
            }
        });
        Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        long events = 0;
        double serverCpu0 = relay.cpuSeconds();
        for (int i = 0; i < warmup + count; i++) {
            String filter = switch (i % 4) {
                case 0 -> "{\"kinds\":[1],\"limit\":" + limit + "}";
                case 1 ->
                    "{\"authors\":[\"" + authors.get(i % authors.size()).pubkey() + "\"],\"limit\":" + limit + "}";
                case 2 -> "{\"#t\":[\"t" + (i % SignedEvents.TOPICS) + "\"],\"limit\":" + limit + "}";
                default ->
                    "{\"kinds\":[1],\"until\":" + (nowSeconds - (i * 7919L) % (9 * 86_400)) + ",\"limit\":" + limit
                            + "}";
            };
            CompletableFuture<Integer> done = new CompletableFuture<>();
            pending.set(done);
            long t0 = System.nanoTime();
            connection.send(("[\"REQ\",\"q" + i + "\"," + filter + "]").getBytes(StandardCharsets.UTF_8));
            int got = done.get(30, TimeUnit.SECONDS);
            long ns = System.nanoTime() - t0;
            connection.send(("[\"CLOSE\",\"q" + i + "\"]").getBytes(StandardCharsets.UTF_8));
            if (i >= warmup) {
                latency.recordValue(ns);
                events += got;
            }
        }
        double serverCpu = relay.cpuSeconds() - serverCpu0;
        connection.close();
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("reqs", count);
        figures.put("limit", limit);
        figures.put("meanEventsPerReq", round((double) events / count));
        figures.putAll(percentilesMs(latency));
        figures.put("serverCpuPerReqMs", round(serverCpu * 1e3 / (warmup + count)));
        return figures;
    }

    /**
     * {@code subscriberCount} connections subscribed to one room; one publisher sends an ephemeral
     * event every {@code intervalMs}; each delivery's latency is from the publisher's send to the
     * subscriber's receipt (one clock: the generator's).
     */
    static Map<String, Object> fanout(
            WebSocketClient client,
            URI uri,
            boolean greets,
            ServerProcess relay,
            Secp256k1JniVerifier secp,
            SignedEvents.Author author,
            int subscriberCount,
            int eventCount,
            int warmupEvents,
            int intervalMs)
            throws Exception {
        List<BenchConnection> subscribers = open(client, uri, greets, subscriberCount);
        CountDownLatch subscribed = new CountDownLatch(subscriberCount);
        long[] sentNs = new long[eventCount];
        Recorder recorder = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
        LongAdder delivered = new LongAdder();
        for (BenchConnection subscriber : subscribers) {
            subscriber.handler((c, buf, offset, length) -> {
                if (BenchConnection.startsWith(buf, offset, length, BenchConnection.EOSE)) {
                    subscribed.countDown();
                    return;
                }
                int seq = contentNumber(buf, offset, length);
                if (seq >= 0 && seq < eventCount) {
                    long ns = System.nanoTime() - sentNs[seq];
                    if (seq >= warmupEvents) {
                        recorder.recordValue(Math.max(0, ns));
                    }
                    delivered.increment();
                }
            });
            subscriber.send("[\"REQ\",\"room\",{\"kinds\":[20001],\"#r\":[\"bench\"],\"limit\":0}]"
                    .getBytes(StandardCharsets.UTF_8));
        }
        if (!subscribed.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("only " + (subscriberCount - subscribed.getCount()) + " subscribed");
        }
        BenchConnection publisher = open(client, uri, greets, 1).get(0);
        long now = System.currentTimeMillis() / 1000;
        List<byte[]> events = new ArrayList<>(eventCount);
        for (int i = 0; i < eventCount; i++) {
            events.add(SignedEvents.message(
                    SignedEvents.sign(secp, author, now, 20001, List.of(List.of("r", "bench")), Integer.toString(i))));
        }
        double serverCpu0 = relay.cpuSeconds();
        long start = System.nanoTime();
        for (int i = 0; i < eventCount; i++) {
            long due = start + TimeUnit.MILLISECONDS.toNanos((long) i * intervalMs);
            while (System.nanoTime() < due) {
                Thread.onSpinWait();
                if (due - System.nanoTime() > 2_000_000) {
                    Thread.sleep(1);
                }
            }
            sentNs[i] = System.nanoTime();
            publisher.send(events.get(i));
        }
        long expected = (long) subscriberCount * eventCount;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (delivered.sum() < expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        double serverCpu = relay.cpuSeconds() - serverCpu0;
        publisher.close();
        close(subscribers);
        Histogram latency = recorder.getIntervalHistogram();
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("subscribers", subscriberCount);
        figures.put("events", eventCount);
        figures.put("eventsPerSecond", 1000 / intervalMs);
        figures.put("delivered", delivered.sum());
        figures.put("expected", expected);
        figures.putAll(percentilesMs(latency));
        figures.put("serverCpuPerDeliveryUs", round(serverCpu * 1e6 / Math.max(1, delivered.sum())));
        return figures;
    }

    /** The number in an event's content ({@code "content":"17"}), or -1. */
    private static int contentNumber(byte[] buf, int offset, int length) {
        int end = offset + length - CONTENT_FIELD.length;
        outer:
        for (int i = offset; i < end; i++) {
            for (int k = 0; k < CONTENT_FIELD.length; k++) {
                if (buf[i + k] != CONTENT_FIELD[k]) {
                    continue outer;
                }
            }
            int value = 0;
            int digits = 0;
            for (int j = i + CONTENT_FIELD.length; j < offset + length && buf[j] >= '0' && buf[j] <= '9'; j++) {
                value = value * 10 + (buf[j] - '0');
                digits++;
            }
            return digits == 0 ? -1 : value;
        }
        return -1;
    }

    /** RSS of a fresh relay with no client, then with {@code count} idle connections open (each greeted). */
    static Map<String, Object> idleMemory(
            WebSocketClient client, URI uri, boolean greets, ServerProcess relay, int count) throws Exception {
        Thread.sleep(3000);
        long baseline = relay.rssBytes();
        List<BenchConnection> connections = open(client, uri, greets, count);
        Thread.sleep(3000);
        long loaded = relay.rssBytes();
        long open = connections.stream().filter(c -> !c.closed).count();
        close(connections);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("connections", count);
        figures.put("stillOpen", open);
        figures.put("idleRssMiB", round(baseline / 1048576.0));
        figures.put("loadedRssMiB", round(loaded / 1048576.0));
        figures.put("perConnectionKiB", round((loaded - baseline) / 1024.0 / count));
        return figures;
    }

    private static Map<String, Object> percentilesMs(Histogram histogram) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("samples", histogram.getTotalCount());
        figures.put("p50Ms", round(histogram.getValueAtPercentile(50) / 1e6));
        figures.put("p90Ms", round(histogram.getValueAtPercentile(90) / 1e6));
        figures.put("p99Ms", round(histogram.getValueAtPercentile(99) / 1e6));
        figures.put("maxMs", round(histogram.getMaxValue() / 1e6));
        return figures;
    }

    static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
