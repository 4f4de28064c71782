package io.tern.turn.method;

import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AddressFamily;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.attribute.Lifetime;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.engine.EngineState;
import io.tern.turn.engine.RequestContext;
import java.util.concurrent.TimeUnit;

/** Refresh (RFC 8656 §7.3, §7.4): a new lifetime for the allocation, or its end with LIFETIME 0. */
public final class RefreshHandler {
    private final EngineState engine;

    public RefreshHandler(EngineState engine) {
        this.engine = engine;
    }

    public void handle(RequestContext request) {
        Allocation allocation = request.allocation();
        long requested = Lifetime.readSeconds(request.message());
        if (requested == Lifetime.MALFORMED) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        // §7.3: REQUESTED-ADDRESS-FAMILY must name a family the allocation has (443).
        int family = AddressFamily.read(request.message(), AttributeType.REQUESTED_ADDRESS_FAMILY);
        if (family != AddressFamily.ABSENT) {
            boolean matches = family == AddressAttribute.WIRE_FAMILY_IPV4 && allocation.relayIdV4() >= 0
                    || family == AddressAttribute.WIRE_FAMILY_IPV6 && allocation.relayIdV6() >= 0;
            if (!matches) {
                request.signedError(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
                return;
            }
        }
        long lifetimeNs = 0;
        if (requested == 0) {
            // §7.3: a requested lifetime of zero deletes the allocation at once.
            engine.deleteAllocation(allocation);
        } else {
            lifetimeNs =
                    Allocation.lifetimeNs(requested, engine.config.defaultLifetimeNs(), engine.config.maxLifetimeNs());
            allocation.refresh(request.nowNs(), lifetimeNs, engine.timers);
        }
        Lifetime.write(request.startSuccess(), TimeUnit.NANOSECONDS.toSeconds(lifetimeNs));
        request.finishSigned();
    }
}
