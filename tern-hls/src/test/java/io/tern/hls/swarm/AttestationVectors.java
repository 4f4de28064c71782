package io.tern.hls.swarm;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The shared attestation vectors (tern-swarm/test/vectors/attestation.json), built from fixed
 * seeds so that every run writes the same file: Java checks them here, the browser library with
 * {@code node --test}. Each case is checked the same way on both sides:
 *
 * <ol>
 *   <li>an endorsement verifies if {@code endorsement} is the origin key's signature over the
 *       session message of (stream, instance, sessionKey, notAfter);
 *   <li>an object verifies if the attestation's kind, msn and part equal the context's (what the
 *       viewer asked for), its length and SHA-256 equal those of the bytes, and {@code sig} is the
 *       session key's signature over the object message of the context and the bytes.
 * </ol>
 */
final class AttestationVectors {
    static final String STREAM = "cam1";
    static final String INSTANCE = "20261207T065000Z-4f2a";
    static final long NOT_AFTER = 1_796_688_000L;

    record Context(ObjectKind kind, String stream, String rendition, String instance, long msn, int part) {}

    record ObjectCase(
            String name, boolean valid, byte[] sessionKey, Context context, Attestation attestation, byte[] bytes) {}

    record SessionCase(
            String name,
            boolean valid,
            byte[] originKey,
            String stream,
            String instance,
            SessionEndorsement endorsement) {}

    final byte[] originSeed = seed("tern-swarm vectors: origin key");
    final byte[] sessionSeed = seed("tern-swarm vectors: session key");
    final byte[] foreignOriginSeed = seed("tern-swarm vectors: foreign origin key");
    final byte[] foreignSessionSeed = seed("tern-swarm vectors: foreign session key");
    final OriginKey origin = OriginKey.fromSeed(originSeed);
    final OriginKey foreignOrigin = OriginKey.fromSeed(foreignOriginSeed);
    final List<ObjectCase> objects = new ArrayList<>();
    final List<SessionCase> sessions = new ArrayList<>();
    final byte[] sessionKey;

    AttestationVectors() {
        StreamSigner signer = new StreamSigner(
                origin, STREAM, INSTANCE, new FixedRandom(sessionSeed), NOT_AFTER - (NOT_AFTER - 86_400));
        long now = NOT_AFTER - 86_400;
        SessionEndorsement endorsement = signer.sessions(now).getFirst();
        sessionKey = endorsement.sessionKey();
        StreamSigner foreign =
                new StreamSigner(foreignOrigin, STREAM, INSTANCE, new FixedRandom(foreignSessionSeed), 86_400);
        byte[] foreignSessionKey = foreign.sessions(now).getFirst().sessionKey();

        sessions.add(new SessionCase(
                "session endorsed by the origin key", true, origin.publicRaw(), STREAM, INSTANCE, endorsement));
        sessions.add(new SessionCase("other stream", false, origin.publicRaw(), "cam2", INSTANCE, endorsement));
        sessions.add(new SessionCase(
                "other instance", false, origin.publicRaw(), STREAM, "20261207T070000Z-9b1c", endorsement));
        sessions.add(new SessionCase(
                "foreign origin key",
                false,
                origin.publicRaw(),
                STREAM,
                INSTANCE,
                foreignOrigin.endorse(STREAM, INSTANCE, sessionKey, NOT_AFTER)));
        sessions.add(new SessionCase(
                "NOT-AFTER moved",
                false,
                origin.publicRaw(),
                STREAM,
                INSTANCE,
                new SessionEndorsement(sessionKey, NOT_AFTER + 86_400, endorsement.endorsement())));
        sessions.add(new SessionCase(
                "other session key",
                false,
                origin.publicRaw(),
                STREAM,
                INSTANCE,
                new SessionEndorsement(foreignSessionKey, NOT_AFTER, endorsement.endorsement())));

        byte[] init = content("init video", 61);
        byte[] part0 = content("video msn 7 part 0", 300);
        byte[] part1 = content("video msn 7 part 1", 257);
        byte[] segment = concat(part0, part1);
        byte[] audio0 = content("audio msn 7 part 0", 113);
        Context initCtx = new Context(ObjectKind.INIT, STREAM, "video", INSTANCE, -1, -1);
        Context p0 = new Context(ObjectKind.PART, STREAM, "video", INSTANCE, 7, 0);
        Context p1 = new Context(ObjectKind.PART, STREAM, "video", INSTANCE, 7, 1);
        Context seg = new Context(ObjectKind.SEGMENT, STREAM, "video", INSTANCE, 7, -1);
        Context a0 = new Context(ObjectKind.PART, STREAM, "audio", INSTANCE, 7, 0);
        Attestation initAtt = valid("init segment", signer, initCtx, init, now);
        Attestation p0Att = valid("part", signer, p0, part0, now);
        valid("next part", signer, p1, part1, now);
        Attestation segAtt = valid("segment", signer, seg, segment, now);
        valid("audio part", signer, a0, audio0, now);

        byte[] flipped = part0.clone();
        flipped[100] ^= 0x01;
        invalid("flipped bit", p0, p0Att, flipped);
        invalid("truncated", p0, p0Att, Arrays.copyOf(part0, part0.length - 1));
        byte[] truncated = Arrays.copyOf(part0, part0.length - 1);
        invalid("truncated, length and hash rewritten", p0, rewritten(p0Att, p0, truncated), truncated);
        invalid("padded", p0, p0Att, concat(part0, new byte[] {0}));
        invalid("other msn", with(p0, 8, 0, "video", STREAM, INSTANCE), p0Att, part0);
        invalid(
                "other msn, tag rewritten",
                with(p0, 8, 0, "video", STREAM, INSTANCE),
                new Attestation(ObjectKind.PART, 8, 0, part0.length, p0Att.sha256(), p0Att.signature()),
                part0);
        invalid("other part", p1, p0Att, part0);
        invalid(
                "other part, tag rewritten",
                p1,
                new Attestation(ObjectKind.PART, 7, 1, part0.length, p0Att.sha256(), p0Att.signature()),
                part0);
        invalid("other rendition", with(p0, 7, 0, "audio", STREAM, INSTANCE), p0Att, part0);
        invalid("other stream", with(p0, 7, 0, "video", "cam2", INSTANCE), p0Att, part0);
        invalid("other instance", with(p0, 7, 0, "video", STREAM, "20261207T070000Z-9b1c"), p0Att, part0);
        invalid("segment bytes for a part", p0, segAtt, segment);
        invalid(
                "init segment of another rendition",
                new Context(ObjectKind.INIT, STREAM, "audio", INSTANCE, -1, -1),
                initAtt,
                init);
        Attestation foreignAtt = foreign.attest(ObjectKind.PART, "video", 7, 0, part0, now);
        invalid("foreign key", p0, foreignAtt, part0);
        objects.add(new ObjectCase(
                "foreign key, verified with it (its endorsement fails)",
                true,
                foreignSessionKey,
                p0,
                foreignAtt,
                part0));
    }

    private Attestation valid(String name, StreamSigner signer, Context c, byte[] bytes, long now) {
        Attestation a = signer.attest(c.kind(), c.rendition(), c.msn(), c.part(), bytes, now);
        objects.add(new ObjectCase(name, true, sessionKey, c, a, bytes));
        return a;
    }

    private void invalid(String name, Context c, Attestation a, byte[] bytes) {
        objects.add(new ObjectCase(name, false, sessionKey, c, a, bytes));
    }

    private static Context with(Context c, long msn, int part, String rendition, String stream, String instance) {
        return new Context(c.kind(), stream, rendition, instance, msn, part);
    }

    private static Attestation rewritten(Attestation a, Context c, byte[] bytes) {
        return new Attestation(c.kind(), c.msn(), c.part(), bytes.length, Attestation.sha256(bytes), a.signature());
    }

    /** The checks a viewer makes, as the file's description states them. */
    static boolean verify(ObjectCase c) {
        Context x = c.context();
        return c.attestation()
                .verifies(
                        c.sessionKey(),
                        x.kind(),
                        x.stream(),
                        x.rendition(),
                        x.instance(),
                        x.msn(),
                        x.part(),
                        c.bytes());
    }

    static boolean verify(SessionCase c) {
        return c.endorsement().verifies(c.originKey(), c.stream(), c.instance());
    }

    static String message(ObjectCase c) {
        Context x = c.context();
        return new String(
                SwarmMessages.object(
                        x.kind(),
                        x.stream(),
                        x.rendition(),
                        x.instance(),
                        x.msn(),
                        x.part(),
                        c.bytes().length,
                        Attestation.sha256(c.bytes())),
                StandardCharsets.UTF_8);
    }

    static String message(SessionCase c) {
        return new String(
                SwarmMessages.session(
                        c.stream(),
                        c.instance(),
                        c.endorsement().sessionKey(),
                        c.endorsement().notAfterEpochS()),
                StandardCharsets.UTF_8);
    }

    String json() {
        HexFormat hex = HexFormat.of();
        StringBuilder out = new StringBuilder();
        out.append("{\n");
        field(
                        out,
                        1,
                        "description",
                        "Attestation vectors for Tern's peer-assisted delivery (docs/swarm-protocol.md), written by "
                                + "tern-hls's AttestationVectorsTest from fixed seeds (seed = SHA-256 of a label); regenerate with "
                                + "-Dtern.vectors.write=true. A session case is valid if endorsement is originKey's Ed25519 signature over "
                                + "the session message of (stream, instance, sessionKey, notAfter). An object case is valid if the "
                                + "attestation's kind, msn and part equal the context's, its length and sha256 equal those of bytes, and "
                                + "sig is sessionKey's Ed25519 signature over the object message of the context and the bytes. message is "
                                + "the signed text of a valid case.")
                .append(",\n");
        out.append("  \"seeds\": {");
        out.append("\"origin\": \"").append(hex.formatHex(originSeed)).append("\", ");
        out.append("\"session\": \"").append(hex.formatHex(sessionSeed)).append("\", ");
        out.append("\"foreignOrigin\": \"")
                .append(hex.formatHex(foreignOriginSeed))
                .append("\", ");
        out.append("\"foreignSession\": \"")
                .append(hex.formatHex(foreignSessionSeed))
                .append("\"},\n");
        field(out, 1, "originKey", origin.publicB64url()).append(",\n");
        field(out, 1, "sessionKey", SwarmMessages.b64url(sessionKey)).append(",\n");
        out.append("  \"sessions\": [\n");
        for (int i = 0; i < sessions.size(); i++) {
            SessionCase c = sessions.get(i);
            SessionEndorsement e = c.endorsement();
            out.append("    {");
            field(out, 0, "name", c.name())
                    .append(", \"valid\": ")
                    .append(c.valid())
                    .append(", ");
            field(out, 0, "originKey", SwarmMessages.b64url(c.originKey())).append(", ");
            field(out, 0, "stream", c.stream()).append(", ");
            field(out, 0, "instance", c.instance()).append(", ");
            field(out, 0, "sessionKey", SwarmMessages.b64url(e.sessionKey())).append(", ");
            out.append("\"notAfter\": ").append(e.notAfterEpochS()).append(", ");
            field(out, 0, "endorsement", SwarmMessages.b64url(e.endorsement())).append(", ");
            field(out, 0, "tag", e.tag());
            if (c.valid()) {
                out.append(", ");
                field(out, 0, "message", message(c));
            }
            out.append(i + 1 < sessions.size() ? "},\n" : "}\n");
        }
        out.append("  ],\n");
        out.append("  \"objects\": [\n");
        for (int i = 0; i < objects.size(); i++) {
            ObjectCase c = objects.get(i);
            Context x = c.context();
            Attestation a = c.attestation();
            out.append("    {");
            field(out, 0, "name", c.name())
                    .append(", \"valid\": ")
                    .append(c.valid())
                    .append(", ");
            field(out, 0, "sessionKey", SwarmMessages.b64url(c.sessionKey())).append(",\n     \"context\": {");
            field(out, 0, "kind", x.kind().wire).append(", ");
            field(out, 0, "stream", x.stream()).append(", ");
            field(out, 0, "rendition", x.rendition()).append(", ");
            field(out, 0, "instance", x.instance()).append(", ");
            out.append("\"msn\": ")
                    .append(x.msn())
                    .append(", \"part\": ")
                    .append(x.part())
                    .append("},\n");
            out.append("     \"attestation\": {");
            field(out, 0, "kind", a.kind().wire).append(", ");
            out.append("\"msn\": ")
                    .append(a.msn())
                    .append(", \"part\": ")
                    .append(a.part())
                    .append(", ");
            out.append("\"length\": ").append(a.byteLength()).append(", ");
            field(out, 0, "sha256", SwarmMessages.b64url(a.sha256())).append(", ");
            field(out, 0, "sig", SwarmMessages.b64url(a.signature())).append("},\n     ");
            field(out, 0, "tag", a.tag()).append(",\n     ");
            if (c.valid()) {
                field(out, 0, "message", message(c)).append(",\n     ");
            }
            field(out, 0, "bytes", hex.formatHex(c.bytes()));
            out.append(i + 1 < objects.size() ? "},\n" : "}\n");
        }
        out.append("  ]\n}\n");
        return out.toString();
    }

    private static StringBuilder field(StringBuilder out, int indent, String name, String value) {
        out.append("  ".repeat(indent)).append('"').append(name).append("\": \"");
        for (char ch : value.toCharArray()) {
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(ch);
            }
        }
        return out.append('"');
    }

    static byte[] seed(String label) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(label.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code length} bytes from SHA-256 of label and a counter: stands in for media. */
    static byte[] content(String label, int length) {
        byte[] out = new byte[length];
        for (int off = 0, block = 0; off < length; off += 32, block++) {
            byte[] b = seed(label + " " + block);
            System.arraycopy(b, 0, out, off, Math.min(32, length - off));
        }
        return out;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Hands out one fixed seed: the first session key is derived from it. */
    static final class FixedRandom extends SecureRandom {
        private final byte[] seed;

        FixedRandom(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = seed[i % seed.length];
            }
        }
    }
}
