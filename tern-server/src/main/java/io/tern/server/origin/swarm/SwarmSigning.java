package io.tern.server.origin.swarm;

import io.tern.hls.swarm.OriginKey;
import io.tern.hls.swarm.StreamSigner;
import java.security.SecureRandom;

/**
 * What every signed stream shares: the origin key and the random source its session keys come
 * from ({@link java.security.SecureRandom} is thread-safe; each stream draws on its own loop).
 *
 * @param sessionLifetimeS how long a session key is endorsed for ({@link StreamSigner#DEFAULT_SESSION_LIFETIME_S})
 */
public record SwarmSigning(OriginKey origin, SecureRandom random, long sessionLifetimeS) {
    public SwarmSigning(OriginKey origin, SecureRandom random) {
        this(origin, random, StreamSigner.DEFAULT_SESSION_LIFETIME_S);
    }

    /** A signer for one stream instance; its first session key is made when first asked. */
    public StreamSigner signer(String stream, String instance) {
        return new StreamSigner(origin, stream, instance, random, sessionLifetimeS);
    }
}
