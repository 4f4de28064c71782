package io.tern.server.origin.swarm;

import io.tern.hls.swarm.OriginKey;
import io.tern.hls.swarm.SessionEndorsement;
import io.tern.hls.swarm.SwarmMessages;
import io.tern.server.origin.registry.StreamRegistry;
import io.tern.server.origin.stream.LiveStream;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a viewer's swarm library asks the origin once, on {@code GET /api/v1/swarm/NAME}: the
 * stream instance, the keys that sign it, where peers meet (the origin's Nostr relay) and TURN
 * credentials for the relay, rate-limited per client address (each answer mints a credential).
 */
public final class SwarmService {
    /** One endorsed session key. */
    public record Session(String key, long notAfter, String endorsement) {}

    /** The answer's fields, as docs/swarm-protocol.md names them. */
    public record Answer(
            String stream,
            String instance,
            String originKey,
            List<Session> sessions,
            String nostr,
            List<TurnAccess.IceServer> iceServers,
            long credentialTtlSeconds) {}

    private final StreamRegistry registry;
    private final OriginKey origin;
    private final TurnAccess turn;
    private final IpRateLimiter limiter;

    /** @param turn the relay viewers use, or null when the origin knows none (peers then try direct paths only) */
    public SwarmService(StreamRegistry registry, OriginKey origin, TurnAccess turn, IpRateLimiter limiter) {
        this.registry = registry;
        this.origin = origin;
        this.turn = turn;
        this.limiter = limiter;
    }

    public OriginKey origin() {
        return origin;
    }

    /** 0 if {@code client} may ask now, else the seconds until it may. */
    public long retryAfterSeconds(InetAddress client) {
        return limiter.retryAfterSeconds(client);
    }

    /**
     * The answer for stream {@code name}, completed on the stream's loop, or with null when the
     * stream is not live or its swarm is off.
     *
     * @param host the Host the viewer reached (header value, with its port), for the relay URLs
     * @param secure whether it came over TLS (then the Nostr URL is {@code wss:})
     */
    public CompletableFuture<Answer> answer(String name, String host, boolean secure) {
        LiveStream stream = registry.lookup(name);
        if (stream == null || stream.ended() || !stream.swarm()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        stream.eventLoop().execute(() -> {
            List<SessionEndorsement> sessions = stream.swarmSessions();
            if (sessions == null || stream.ended()) {
                answer.complete(null);
                return;
            }
            List<Session> keys = new ArrayList<>(sessions.size());
            for (SessionEndorsement s : sessions) {
                keys.add(new Session(
                        SwarmMessages.b64url(s.sessionKey()),
                        s.notAfterEpochS(),
                        SwarmMessages.b64url(s.endorsement())));
            }
            List<TurnAccess.IceServer> ice = turn == null ? List.of() : List.of(turn.issue(hostName(host)));
            answer.complete(new Answer(
                    stream.name(),
                    stream.instanceId(),
                    origin.publicB64url(),
                    keys,
                    (secure ? "wss://" : "ws://") + host + "/nostr",
                    ice,
                    TurnAccess.CREDENTIAL_TTL_S));
        });
        return answer;
    }

    /** {@code example.com:8080} → {@code example.com}; {@code [::1]:8080} → {@code [::1]}. */
    static String hostName(String host) {
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            return close < 0 ? host : host.substring(0, close + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 || host.indexOf(':', colon + 1) >= 0 ? host : host.substring(0, colon);
    }
}
