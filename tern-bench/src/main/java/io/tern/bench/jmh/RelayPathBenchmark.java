package io.tern.bench.jmh;

import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.TurnEngine;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The relay fast path through the real {@link TurnEngine}, with the drain of its command queue that
 * the transport does after every input: ChannelData from the client towards the peer, and a peer
 * datagram turned into ChannelData in place (4 bytes of headroom, no copy). Both must allocate nothing: see {@code gc.alloc.rate.norm} with {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class RelayPathBenchmark {
    @Param({"160", "1200"})
    int payloadBytes;

    private EngineHarness harness;
    private UnsafeBuffer fromClient;
    private UnsafeBuffer fromPeer;
    private final TransportAddress peer = EngineHarness.PEER.copy();
    private long peerToClientBefore;
    private long clientToPeerBefore;

    @Setup(Level.Trial)
    public void setUp() {
        harness = new EngineHarness().withChannel();
        // Direct memory, as the transport hands the engine Netty's direct buffers.
        fromClient = new UnsafeBuffer(ByteBuffer.allocateDirect(4 + payloadBytes));
        fromClient.putShort(0, (short) EngineHarness.CHANNEL, ByteOrder.BIG_ENDIAN);
        fromClient.putShort(2, (short) payloadBytes, ByteOrder.BIG_ENDIAN);
        fromPeer = new UnsafeBuffer(ByteBuffer.allocateDirect(TurnEngine.PEER_PACKET_HEADROOM + payloadBytes));
        for (int i = 0; i < payloadBytes; i++) {
            fromClient.putByte(4 + i, (byte) i);
            fromPeer.putByte(TurnEngine.PEER_PACKET_HEADROOM + i, (byte) i);
        }
        clientToPeerBefore = harness.transport.sentToPeer;
        peerToClientBefore = harness.transport.sentToClient;
    }

    @TearDown(Level.Trial)
    public void check() {
        harness.checkNothingDropped();
        if (harness.transport.sentToPeer == clientToPeerBefore
                && harness.transport.sentToClient == peerToClientBefore) {
            throw new IllegalStateException("nothing was relayed");
        }
    }

    /** ChannelData 0x4000 from the client: allocation lookup, channel, permission, one queued send, the drain. */
    @Benchmark
    public void channelDataClientToPeer() {
        harness.fromClient(fromClient, 0, 4 + payloadBytes);
    }

    /** A peer datagram on the relay socket: allocation by relay id, permission, channel, header written in place, the drain. */
    @Benchmark
    public void peerToClientChannelData() {
        harness.fromPeer(peer, fromPeer, TurnEngine.PEER_PACKET_HEADROOM, payloadBytes);
    }
}
