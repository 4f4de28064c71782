package io.tern.turn.method;

import io.tern.stun.attribute.AttributeType;
import io.tern.turn.engine.RequestContext;

/** Binding (RFC 8489 §7.3.1): answers with the client's reflexive address; needs no credentials. */
public final class BindingHandler {
    public void handle(RequestContext request) {
        // §6.3.1 step 2: unknown comprehension-required attributes are 420.
        if (request.message().unknownRequiredCount() > 0) {
            request.unknownAttributes();
            return;
        }
        // §7.3.1: XOR-MAPPED-ADDRESS is the source transport address of the request.
        request.startSuccess()
                .putXorAddress(
                        AttributeType.XOR_MAPPED_ADDRESS, request.client().address());
        request.finishUnsigned();
    }
}
