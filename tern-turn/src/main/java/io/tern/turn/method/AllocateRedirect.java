package io.tern.turn.method;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunMessageWriter;
import io.tern.turn.engine.EngineState;
import io.tern.turn.engine.RequestContext;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.redirect.AlternateServers;

/**
 * RFC 8656 §7.2: "the server MAY choose to reject the request with a 300 (Try Alternate) error" and
 * RFC 8489 §10: "The server MUST include at least one ALTERNATE-SERVER attribute in the error
 * response, which MUST contain an IP address of the same address family as the source IP address
 * of the request message. The server SHOULD include an additional ALTERNATE-SERVER attribute for
 * each other address family that the server supports." The alternates are the adapter's latest
 * {@link AlternateServers}; the pick is round robin per engine, as coturn's {@code as_counter} is
 * per server. The answer is signed: the request was authenticated before any handler ran.
 */
final class AllocateRedirect {
    private final EngineState engine;
    private int next;

    AllocateRedirect(EngineState engine) {
        this.engine = engine;
    }

    /**
     * Answers 300 when Allocates are redirected now (always, or while draining) and an alternate
     * of the client's family exists for its transport; returns whether it answered.
     */
    boolean answered(RequestContext request) {
        AlternateServers alternates = engine.shared.alternates().current();
        if (!alternates.redirects(engine.state().draining())) {
            return false;
        }
        TransportProtocol transport = request.protocol();
        boolean ipv6 = !request.client().address().isIpv4();
        int count = alternates.count(transport, ipv6);
        if (count == 0) {
            return false;
        }
        int pick = next;
        next = pick == Integer.MAX_VALUE ? 0 : pick + 1;
        StunMessageWriter answer = request.startError(ErrorCode.TRY_ALTERNATE)
                .putAddress(AttributeType.ALTERNATE_SERVER, alternates.get(transport, ipv6, pick % count));
        int otherCount = alternates.count(transport, !ipv6);
        if (otherCount > 0) {
            answer.putAddress(AttributeType.ALTERNATE_SERVER, alternates.get(transport, !ipv6, pick % otherCount));
        }
        request.finishSigned();
        return true;
    }
}
