package io.tern.bench.jmh;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunHeaderFlyweight;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * tern-stun's codec on the messages a TURN client really sends: the signed Allocate and ChannelBind
 * requests (USERNAME, REALM, NONCE, MESSAGE-INTEGRITY, FINGERPRINT) that {@link EngineHarness} sent
 * to a real engine and that engine accepted.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class StunCodecBenchmark {
    @Param({"allocate", "channelBind"})
    String request;

    private final StunMessageDecoder decoder = new StunMessageDecoder();
    private final MessageIntegrity integrity = new MessageIntegrity(TurnEngine.MAX_MESSAGE_BYTES);
    private final StunMessageWriter writer = new StunMessageWriter(
            new MessageIntegrity(TurnEngine.MAX_MESSAGE_BYTES), new Fingerprint(TurnEngine.MAX_MESSAGE_BYTES));
    private final UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(1500));
    private final StunHeaderFlyweight requestHeader = new StunHeaderFlyweight();
    private final byte[] mac = new byte[MessageIntegrity.SHA1_LENGTH];
    private final byte[] mac256 = new byte[MessageIntegrity.SHA256_LENGTH];
    private final TransportAddress relayed = TransportAddress.parse("192.0.2.1", 49200);
    private final TransportAddress mapped = EngineHarness.CLIENT.copy();
    private UnsafeBuffer message;
    private int length;
    private int integrityOffset;
    private byte[] key;
    private UnsafeBuffer messageSha256;
    private byte[] keySha256;

    @Setup(Level.Trial)
    public void setUp() {
        EngineHarness h = new EngineHarness().withChannel();
        byte[] bytes = "allocate".equals(request) ? h.signedAllocate : h.signedChannelBind;
        key = h.key;
        length = bytes.length;
        message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        message.putBytes(0, bytes);
        StunMessageDecoder d = new StunMessageDecoder();
        if (d.decode(message, 0, length) != StunMessageDecoder.OK || d.integrityAttributeOffset() < 0) {
            throw new IllegalStateException("request does not decode");
        }
        integrityOffset = d.integrityAttributeOffset();
        if (!integrity.verify(message, 0, integrityOffset, key)) {
            throw new IllegalStateException("request does not verify");
        }
        requestHeader.wrap(message, 0);
        keySha256 = MessageIntegrity.longTermKeySha256(
                EngineHarness.utf8(EngineHarness.USER),
                EngineHarness.utf8(EngineHarness.REALM),
                EngineHarness.utf8(EngineHarness.PASSWORD));
        messageSha256 = signedWithSha256(message, integrityOffset, keySha256);
        if (!integrity.verify(messageSha256, 0, integrityOffset, keySha256)) {
            throw new IllegalStateException("SHA-256 request does not verify");
        }
    }

    /** The same request with MESSAGE-INTEGRITY-SHA256 (32 bytes) in place of MESSAGE-INTEGRITY and FINGERPRINT. */
    private UnsafeBuffer signedWithSha256(UnsafeBuffer request, int attributeOffset, byte[] signingKey) {
        int signedLength = attributeOffset + 4 + MessageIntegrity.SHA256_LENGTH;
        UnsafeBuffer signed = new UnsafeBuffer(ByteBuffer.allocateDirect(signedLength));
        signed.putBytes(0, request, 0, attributeOffset);
        signed.putShort(
                StunHeaderFlyweight.LENGTH_FIELD_OFFSET,
                (short) (signedLength - StunHeaderFlyweight.HEADER_LENGTH),
                ByteOrder.BIG_ENDIAN);
        signed.putShort(attributeOffset, (short) AttributeType.MESSAGE_INTEGRITY_SHA256, ByteOrder.BIG_ENDIAN);
        signed.putShort(attributeOffset + 2, (short) MessageIntegrity.SHA256_LENGTH, ByteOrder.BIG_ENDIAN);
        integrity.compute(signed, 0, attributeOffset, MessageIntegrity.SHA256_LENGTH, signingKey, mac256);
        signed.putBytes(attributeOffset + 4, mac256);
        return signed;
    }

    /** Header checks, attribute walk and index, FINGERPRINT position; no integrity. */
    @Benchmark
    public int decode() {
        return decoder.decode(message, 0, length) + decoder.peerAddressCount();
    }

    /** HMAC-SHA1 over the request up to MESSAGE-INTEGRITY, with the long-term key. */
    @Benchmark
    public byte[] integrityCompute() {
        integrity.compute(message, 0, integrityOffset, MessageIntegrity.SHA1_LENGTH, key, mac);
        return mac;
    }

    /** compute plus the constant-time comparison the engine does on every signed request. */
    @Benchmark
    public boolean integrityVerify() {
        return integrity.verify(message, 0, integrityOffset, key);
    }

    /** HMAC-SHA256 (MESSAGE-INTEGRITY-SHA256) over the same bytes, with the SHA-256 long-term key. */
    @Benchmark
    public byte[] integrityComputeSha256() {
        integrity.compute(messageSha256, 0, integrityOffset, MessageIntegrity.SHA256_LENGTH, keySha256, mac256);
        return mac256;
    }

    /** verify of MESSAGE-INTEGRITY-SHA256. */
    @Benchmark
    public boolean integrityVerifySha256() {
        return integrity.verify(messageSha256, 0, integrityOffset, keySha256);
    }

    /**
     * The engine's Allocate success response: XOR-RELAYED-ADDRESS, LIFETIME, XOR-MAPPED-ADDRESS,
     * MESSAGE-INTEGRITY, FINGERPRINT, answering this request's transaction.
     */
    @Benchmark
    public int encodeAllocateSuccess() {
        writer.startResponse(
                        out, 0, StunClass.messageType(StunMethod.ALLOCATE, StunClass.SUCCESS_RESPONSE), requestHeader)
                .putXorAddress(AttributeType.XOR_RELAYED_ADDRESS, relayed)
                .putInt(AttributeType.LIFETIME, 600)
                .putXorAddress(AttributeType.XOR_MAPPED_ADDRESS, mapped)
                .putMessageIntegrity(key)
                .putFingerprint();
        return writer.length();
    }
}
