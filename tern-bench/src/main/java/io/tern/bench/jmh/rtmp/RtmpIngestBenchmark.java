package io.tern.bench.jmh.rtmp;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.rtmp.RtmpException;
import io.tern.rtmp.bytes.ByteWriter;
import io.tern.rtmp.chunk.ChunkReader;
import io.tern.rtmp.chunk.ChunkWriter;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpClientSession;
import io.tern.rtmp.session.RtmpEvent;
import io.tern.rtmp.session.RtmpServerSession;
import io.tern.rtmp.session.RtmpSettings;
import io.tern.rtmp.session.WriteSink;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The RTMP ingest path per message, as a publisher's bytes reach it: chunk parsing alone, and
 * chunk parsing with the FLV demux of a publishing server session (one access unit out). The
 * bytes are what {@link RtmpClientSession} writes for a stream at 4096-byte chunks; each replayed
 * message has a relative (type 2/3) header, so timestamps keep advancing and no discontinuity is
 * reported. The target: nothing allocated per chunk, and per message only the access unit's own
 * payload plus its small objects.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RtmpIngestBenchmark {
    /** A 20 000-byte video frame (5 chunks) or a 300-byte AAC frame (1 chunk). */
    @Param({"video", "audio"})
    String message;

    private RtmpServerSession server;
    private ByteBuffer bytes;
    private final ChunkReader parserOnly = new ChunkReader(8 << 20, 64, 32 << 20);
    private ByteBuffer parserBytes;
    private final WriteSink discard = (b, off, len) -> {};
    private final ChunkReader.MessageHandler count = (csid, type, stream, ts, payload, length) -> true;
    private long nowNs = 1_000_000_000L;

    @Setup
    public void setUp() throws MediaFormatException, RtmpException {
        AvcConfig avc = AvcConfig.fromParameterSets(
                List.of(HexFormat.of().parseHex("6764001facb402802dd80880000003008000001e478c1950")),
                List.of(HexFormat.of().parseHex("68ef0fcb")));
        AacConfig aac = AacConfig.parse(new byte[] {0x11, (byte) 0x90}, 0, 2);
        SplittableRandom random = new SplittableRandom(1);
        server = new RtmpServerSession(RtmpSettings.defaults(), random.split(), nowNs);
        RtmpClientSession client = new RtmpClientSession(
                RtmpSettings.defaults(),
                new RtmpClientSession.Target("live", "rtmp://bench/live", "bench"),
                HandshakeScheme.PLAIN,
                random.split(),
                nowNs);
        pump(client);
        RtmpEvent.PublishRequested request = null;
        for (RtmpEvent e; (e = server.pollEvent()) != null; ) {
            if (e instanceof RtmpEvent.PublishRequested r) {
                request = r;
            }
        }
        server.acceptPublish(request.messageStreamId(), nowNs);
        pump(client);
        client.sendConfig(avc, 0);
        client.sendConfig(aac, 0);
        boolean video = message.equals("video");
        // The first two messages of the track set up its chunk stream; the third is replayed.
        byte[] replay = null;
        for (int i = 0; i < 3; i++) {
            AccessUnit unit = video ? videoFrame(i * 33L, 20_000) : audioFrame(i * 21L, 300);
            client.sendAccessUnit(unit);
            if (i < 2) {
                pump(client);
            } else {
                byte[][] taken = new byte[1][];
                client.drainWrites((b, off, len) -> taken[0] = Arrays.copyOfRange(b, off, off + len));
                replay = taken[0];
            }
        }
        drainEvents();
        bytes = ByteBuffer.allocateDirect(replay.length).put(replay);
        // The parser-only reader learns the same chunk stream from a type 0 header first.
        byte[] primer = primer(video);
        parserBytes = ByteBuffer.allocateDirect(primer.length).put(primer);
        parserOnly.setChunkSize(4096);
        parserOnly.read(parserBytes.flip(), count);
        parserBytes = ByteBuffer.allocateDirect(replay.length).put(replay);
    }

    /** Chunk parsing and message reassembly only: no demux, nothing kept. */
    @Benchmark
    public long chunkParser() throws RtmpException {
        parserBytes.clear();
        parserOnly.read(parserBytes, count);
        return parserOnly.messages();
    }

    /** The server session: chunks, message dispatch, FLV demux, one access unit event. */
    @Benchmark
    public void chunkParserAndDemux(Blackhole blackhole) {
        bytes.clear();
        nowNs += 33_000_000;
        server.onBytes(bytes, nowNs);
        server.drainWrites(discard);
        for (RtmpEvent e; (e = server.pollEvent()) != null; ) {
            blackhole.consume(e);
        }
    }

    private void pump(RtmpClientSession client) {
        for (int round = 0; round < 20; round++) {
            byte[][] c = {null};
            client.drainWrites((b, off, len) -> c[0] = Arrays.copyOfRange(b, off, off + len));
            if (c[0] != null) {
                server.onBytes(ByteBuffer.wrap(c[0]), nowNs);
            }
            byte[][] s = {null};
            server.drainWrites((b, off, len) -> s[0] = Arrays.copyOfRange(b, off, off + len));
            if (s[0] != null) {
                client.onBytes(ByteBuffer.wrap(s[0]), nowNs);
            }
            if (c[0] == null && s[0] == null) {
                return;
            }
        }
    }

    private void drainEvents() {
        while (server.pollEvent() != null) {
            // setup events
        }
    }

    /** A type 0 header then a type 2 header for the track's chunk stream, so that the replayed type 3 message is valid. */
    private static byte[] primer(boolean video) {
        ChunkWriter writer = new ChunkWriter();
        writer.setChunkSize(4096);
        ByteWriter out = new ByteWriter(64 * 1024);
        int csid = video ? 6 : 4;
        int type = video ? 9 : 8;
        int length = video ? 5 + 4 + 20_000 : 2 + 300;
        byte[] payload = new byte[length];
        writer.write(out, csid, type, 1, 0, payload, 0, length);
        writer.write(out, csid, type, 1, video ? 33 : 21, payload, 0, length);
        return Arrays.copyOf(out.array(), out.length());
    }

    private static AccessUnit videoFrame(long dtsMs, int nalBytes) {
        byte[] data = new byte[4 + nalBytes];
        data[0] = (byte) (nalBytes >>> 24);
        data[1] = (byte) (nalBytes >>> 16);
        data[2] = (byte) (nalBytes >>> 8);
        data[3] = (byte) nalBytes;
        data[4] = 0x41;
        return new AccessUnit(TrackType.VIDEO, dtsMs * 90, dtsMs * 90, false, data);
    }

    private static AccessUnit audioFrame(long dtsMs, int bytes) {
        return new AccessUnit(TrackType.AUDIO, dtsMs * 90, dtsMs * 90, true, new byte[bytes]);
    }
}
