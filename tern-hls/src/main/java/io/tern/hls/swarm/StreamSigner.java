package io.tern.hls.swarm;

import io.tern.hls.media.MediaObject;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Signs the objects of one stream instance, once each, on the packager's thread: a session key
 * (drawn from the injected random source) endorsed by the origin key, and rotated before it
 * expires. Time comes in as epoch seconds from the packager's injected wall clock.
 *
 * <p>Rotation: a session is endorsed for {@code sessionLifetimeS}; once less than {@link
 * #ROTATION_LEAD_S} is left a new one takes over, and the old one stays listed until its
 * NOT-AFTER. The lead exceeds the longest playlist window (PackagerConfig.MAX_PLAYLIST_WINDOW_MS),
 * so every listed object's signer is listed and valid.
 *
 * <p>Not thread-safe: one thread (the stream's) calls it.
 */
public final class StreamSigner {
    public static final long DEFAULT_SESSION_LIFETIME_S = 24 * 3600;
    public static final long ROTATION_LEAD_S = 3600;

    private final OriginKey origin;
    private final String stream;
    private final String instance;
    private final SecureRandom random;
    private final long sessionLifetimeS;
    /** Oldest first; the last one signs. */
    private final List<Session> sessions = new ArrayList<>(2);

    private final List<SessionEndorsement> endorsements = new ArrayList<>(2);
    private final List<SessionEndorsement> listed = Collections.unmodifiableList(endorsements);
    private final MessageDigest digest = Attestation.newSha256();
    private final Signature signature = Ed25519.newSignature();
    private byte[] scratch = new byte[64 * 1024];

    public StreamSigner(OriginKey origin, String stream, String instance, SecureRandom random, long sessionLifetimeS) {
        if (sessionLifetimeS <= ROTATION_LEAD_S) {
            throw new IllegalArgumentException("sessionLifetimeS " + sessionLifetimeS
                    + " must exceed the rotation lead (" + ROTATION_LEAD_S + " s)");
        }
        this.origin = origin;
        this.stream = stream;
        this.instance = instance;
        this.random = random;
        this.sessionLifetimeS = sessionLifetimeS;
    }

    public String stream() {
        return stream;
    }

    public String instance() {
        return instance;
    }

    public OriginKey origin() {
        return origin;
    }

    /** The endorsements to list now (current last), rotating first if it is time. */
    public List<SessionEndorsement> sessions(long nowEpochS) {
        current(nowEpochS);
        return listed;
    }

    /** The endorsements listed since the last rotation check (the current one last): for rendering, which never rotates. */
    public List<SessionEndorsement> listed() {
        return listed;
    }

    /** Attests {@code object}, which is complete: its chunks are hashed as they lie, then signed. */
    public Attestation attest(
            ObjectKind kind, String rendition, long msn, int part, MediaObject object, long nowEpochS) {
        digest.reset();
        long length = 0;
        for (int i = 0; i < object.chunkCount(); i++) {
            var chunk = object.chunk(i);
            int n = chunk.length();
            if (n > scratch.length) {
                scratch = new byte[Math.max(n, scratch.length * 2)];
            }
            chunk.copyTo(scratch, 0);
            digest.update(scratch, 0, n);
            length += n;
        }
        return sign(kind, rendition, msn, part, length, digest.digest(), nowEpochS);
    }

    /** Attests an object held as one array. */
    public Attestation attest(ObjectKind kind, String rendition, long msn, int part, byte[] bytes, long nowEpochS) {
        digest.reset();
        return sign(kind, rendition, msn, part, bytes.length, digest.digest(bytes), nowEpochS);
    }

    private Attestation sign(
            ObjectKind kind, String rendition, long msn, int part, long length, byte[] sha256, long nowEpochS) {
        Session s = current(nowEpochS);
        byte[] message = SwarmMessages.object(kind, stream, rendition, instance, msn, part, length, sha256);
        try {
            signature.initSign(s.pair.getPrivate());
            signature.update(message);
            return new Attestation(kind, msn, part, length, sha256, signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    private Session current(long nowEpochS) {
        Session last = sessions.isEmpty() ? null : sessions.getLast();
        boolean changed = false;
        if (last == null || nowEpochS >= last.endorsement.notAfterEpochS() - ROTATION_LEAD_S) {
            KeyPair pair = Ed25519.generate(random);
            long notAfter = nowEpochS + sessionLifetimeS;
            last = new Session(pair, origin.endorse(stream, instance, Ed25519.publicRaw(pair.getPublic()), notAfter));
            sessions.add(last);
            changed = true;
        }
        while (sessions.size() > 1 && sessions.getFirst().endorsement.notAfterEpochS() <= nowEpochS) {
            sessions.removeFirst();
            changed = true;
        }
        if (changed) {
            endorsements.clear();
            for (Session session : sessions) {
                endorsements.add(session.endorsement);
            }
        }
        return last;
    }

    private record Session(KeyPair pair, SessionEndorsement endorsement) {}
}
