package io.tern.server.origin.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.AccessUnit;
import io.tern.netty.hls.DirectBudget;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpService;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.origin.auth.PublishPolicy;
import io.tern.server.origin.auth.PublishRequest;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginOptions;
import io.tern.server.origin.metrics.OriginCounters;
import io.tern.server.origin.registry.IngestSession;
import io.tern.server.origin.registry.PublishOutcome;
import io.tern.server.origin.registry.StreamInput;
import io.tern.server.origin.registry.StreamRegistry;
import io.tern.server.origin.stream.StreamContext;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The origin's registry, streams and HTTP routes on embedded channels, with simulated time: media
 * goes in through the registry as an ingest would hand it, requests go in as bytes, and time moves
 * only when the test says so ({@link #feedMs}, {@link #advanceMs}), so held requests and their
 * deadlines are exact and nothing sleeps.
 */
final class EmbeddedOrigin implements AutoCloseable {
    /** Owns the event loop (and frozen clock) every stream of this origin runs on. */
    final EmbeddedChannel loop = new EmbeddedChannel();

    final OriginCounters counters = new OriginCounters();
    /** The direct memory every stream's shared bodies hold. */
    final DirectBudget budget = new DirectBudget(64L << 20);

    final StreamRegistry registry;
    final HttpService service;
    private final long startNs;
    private final List<Client> clients = new ArrayList<>();

    EmbeddedOrigin(String... options) {
        loop.freezeTime();
        startNs = loop.eventLoop().ticker().nanoTime();
        List<Occurrence> cli = new ArrayList<>();
        cli.add(occurrence(OriginOptions.NO_PUBLISH_AUTH, ""));
        for (String option : options) {
            int eq = option.indexOf('=');
            cli.add(occurrence(OriginOptions.byName(option.substring(0, eq)), option.substring(eq + 1)));
        }
        OriginConfig config = OriginConfig.assemble(List.of(), cli);
        InstantSource wall = () -> Instant.ofEpochMilli(1_767_225_600_000L + elapsedMs());
        StreamContext context = new StreamContext(counters, wall, budget, 16L << 20, null, 60_000, 1000, null, null);
        registry = new StreamRegistry(
                config, new PublishPolicy(config, new SecureRandom(), wall), context, 10, () -> 12345);
        service = new HttpService(HlsRoutes.build(registry), HttpLimits.DEFAULTS, wall);
    }

    private static Occurrence occurrence(Option<?> row, String value) {
        return new Occurrence(row, value, ConfigSource.commandLine(), null);
    }

    long elapsedMs() {
        return TimeUnit.NANOSECONDS.toMillis(loop.eventLoop().ticker().nanoTime() - startNs);
    }

    /** A publisher of {@code name}, accepted. */
    Publisher publish(String name) throws Exception {
        PublishOutcome outcome = publishOutcome(name);
        if (!(outcome instanceof PublishOutcome.Accepted accepted)) {
            throw new AssertionError("refused: " + outcome);
        }
        return new Publisher(name, accepted.input(), accepted.instanceId());
    }

    PublishOutcome publishOutcome(String name) throws Exception {
        IngestSession session = new IngestSession() {
            @Override
            public String protocol() {
                return "rtmp";
            }

            @Override
            public InetSocketAddress remoteAddress() {
                return new InetSocketAddress("192.0.2.7", 50000);
            }

            @Override
            public EventLoop eventLoop() {
                return loop.eventLoop();
            }

            @Override
            public void disconnect(String reason) {}
        };
        return registry.publish(new PublishRequest("rtmp", "live", name, session.remoteAddress(), ""), session)
                .get(5, TimeUnit.SECONDS);
    }

    /** Moves the clock, running the timers that fall due, and moves every client's bytes. */
    void advanceMs(long ms) {
        loop.advanceTimeBy(ms, TimeUnit.MILLISECONDS);
        loop.runScheduledPendingTasks();
        loop.runPendingTasks();
        clients.forEach(Client::pump);
    }

    Client connect() {
        Client client = new Client();
        clients.add(client);
        return client;
    }

    /** A stream's publisher: synthetic 30 fps video (GOP 1 s) and 48 kHz AAC, fed at media time. */
    final class Publisher {
        /** Two minutes of media, generated once (frames are cut by time, never regenerated). */
        private static final long MEDIA_MS = 120_000;

        final StreamInput input;
        final String name;
        final String instanceId;
        private final List<AccessUnit> units;
        private int next;
        private long fedMs;
        private final long startElapsedMs;

        Publisher(String name, StreamInput input, String instanceId) {
            this.name = name;
            this.input = input;
            this.instanceId = instanceId;
            SyntheticStream media = new SyntheticStream();
            media.millisecondTimestamps = true;
            this.units = media.generate(0, MEDIA_MS);
            this.startElapsedMs = elapsedMs();
            input.config(TestMedia.avc720p());
            input.config(TestMedia.aac48k());
        }

        /** {@code ms} more of media, each frame when its time comes. */
        Publisher feedMs(long ms) {
            fedMs += ms;
            while (next < units.size() && units.get(next).dts() / 90 < fedMs) {
                AccessUnit unit = units.get(next++);
                long due = startElapsedMs + unit.dts() / 90;
                if (due > elapsedMs()) {
                    advanceMs(due - elapsedMs());
                }
                input.accessUnit(unit);
                clients.forEach(Client::pump);
            }
            return this;
        }

        String path(String file) {
            return "/live/" + name + "/" + instanceId + "/" + file;
        }
    }

    /** One HTTP/1.1 connection: requests as bytes in, responses decoded as they arrive, chunk by chunk. */
    final class Client {
        final EmbeddedChannel server = new EmbeddedChannel();
        private final EmbeddedChannel decoder = new EmbeddedChannel(new HttpResponseDecoder());
        final List<Response> responses = new ArrayList<>();

        Client() {
            server.freezeTime();
            server.pipeline().addLast(service.initializer(null));
        }

        Client get(String target, String... headers) {
            StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: origin\r\n");
            for (String header : headers) {
                request.append(header).append("\r\n");
            }
            server.writeInbound(Unpooled.copiedBuffer(request.append("\r\n").toString(), StandardCharsets.ISO_8859_1));
            pump();
            return this;
        }

        void pump() {
            server.runPendingTasks();
            loop.runPendingTasks();
            server.runPendingTasks();
            for (ByteBuf out; (out = server.readOutbound()) != null; ) {
                decoder.writeInbound(out);
            }
            for (Object o; (o = decoder.readInbound()) != null; ) {
                if (o instanceof HttpResponse head) {
                    responses.add(new Response(head));
                }
                if (o instanceof HttpContent content) {
                    Response r = responses.get(responses.size() - 1);
                    if (content.content().isReadable()) {
                        byte[] bytes = new byte[content.content().readableBytes()];
                        content.content().readBytes(bytes);
                        r.pieces.add(bytes);
                        r.body.writeBytes(bytes);
                    }
                    if (content instanceof LastHttpContent) {
                        r.complete = true;
                    }
                    content.release();
                }
            }
        }

        /** The {@code i}th response, or null when it has not begun. */
        Response response(int i) {
            pump();
            return i < responses.size() ? responses.get(i) : null;
        }

        Response last() {
            pump();
            return responses.isEmpty() ? null : responses.get(responses.size() - 1);
        }
    }

    /** A response as far as it arrived. */
    static final class Response {
        final HttpResponse head;
        final List<byte[]> pieces = new ArrayList<>();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        boolean complete;

        Response(HttpResponse head) {
            this.head = head;
        }

        int status() {
            return head.status().code();
        }

        String header(String name) {
            return head.headers().get(name);
        }

        String text() {
            return body.toString(StandardCharsets.UTF_8);
        }

        byte[] bytes() {
            return body.toByteArray();
        }

        @Override
        public String toString() {
            return head.status() + " " + head.headers() + (complete ? " complete " : " partial ") + body.size() + " B";
        }
    }

    @Override
    public void close() {
        registry.close();
        loop.runPendingTasks();
        for (Client c : clients) {
            c.server.finishAndReleaseAll();
            c.decoder.finishAndReleaseAll();
        }
        loop.finishAndReleaseAll();
    }
}
