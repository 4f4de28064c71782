package io.tern.turn.method;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AddressErrorCode;
import io.tern.stun.attribute.AddressFamily;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.attribute.EvenPort;
import io.tern.stun.attribute.Lifetime;
import io.tern.stun.attribute.RequestedTransport;
import io.tern.stun.attribute.ReservationToken;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.allocation.AllocationTable;
import io.tern.turn.allocation.RelayOpening;
import io.tern.turn.engine.EngineState;
import io.tern.turn.engine.RequestContext;
import io.tern.turn.engine.SharedState;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.quota.LeaseDecision;
import java.util.concurrent.TimeUnit;

/**
 * Allocate (RFC 8656 §7.2; RFC 6062 §5.1 for TCP allocations). The request is checked and its
 * ports taken here; the relay sockets are then opened by the transport, which reports back
 * through {@link #onRelayOpened}, and only then is the request answered.
 */
public final class AllocateHandler {
    private final EngineState engine;
    private final byte[] tokenScratch = new byte[ReservationToken.VALUE_LENGTH];
    private final byte[] addressErrorScratch = new byte[AddressErrorCode.maxValueBytes()];
    private final TransportAddress candidate = new TransportAddress();
    private final RequestedAttributes requested = new RequestedAttributes();
    private final AllocateRedirect redirect;

    public AllocateHandler(EngineState engine) {
        this.engine = engine;
        this.redirect = new AllocateRedirect(engine);
    }

    /**
     * Answers an Allocate, or takes its ports and asks the transport for its relay sockets. Each
     * step of RFC 8656 §7.2 is one method below, in the order Tern checks them (the order decides
     * which error a request with several faults gets). Step 1 (authentication) is done before any
     * handler runs; step 4 needs nothing (Tern honours DONT-FRAGMENT); the 300 (Try Alternate) the
     * server MAY send comes right after step 2, as coturn's redirect follows its 437 check. With
     * fleet-wide quotas step 10 is asked of the fleet too, once the local checks passed
     * ({@link #step10FleetQuota}).
     */
    public void handle(RequestContext request) {
        if (step2FiveTupleFree(request)
                && !redirect.answered(request)
                && step3RequestedTransport(request)
                && rfc6062TcpAttributes(request)
                && steps5And6AttributesExclusive(request)
                && step7FamilyKnown(request)
                && step9AdditionalFamily(request)
                && step7FamilyServed(request)
                && step5TokenWellFormed(request)
                && notDraining(request)
                && step10Quota(request)) {
            Allocation allocation = newAllocation(request);
            if (steps5And8Ipv4Port(request, allocation) && step9Ipv6Port(request, allocation)) {
                engine.allocations.add(allocation);
                step10FleetQuota(allocation);
            }
        }
    }

    /**
     * Step 2: "The server checks if the 5-tuple is currently in use by an existing allocation. If
     * yes, the server rejects the request with a 437 (Allocation Mismatch) error."
     */
    private boolean step2FiveTupleFree(RequestContext request) {
        if (request.allocation() != null) {
            request.signedError(ErrorCode.ALLOCATION_MISMATCH);
            return false;
        }
        return true;
    }

    /**
     * Step 3: "The server checks if the request contains a REQUESTED-TRANSPORT attribute. If the
     * REQUESTED-TRANSPORT attribute is not included or is malformed, the server rejects the request
     * with a 400 (Bad Request) error. Otherwise, if the attribute is included but specifies a
     * protocol that is not supported by the server, the server rejects the request with a 442
     * (Unsupported Transport Protocol) error." UDP is supported, and TCP (RFC 6062 §5.1) over a TCP
     * or TLS control connection. A malformed LIFETIME is a 400 here too. Reads every attribute the
     * later steps look at.
     */
    private boolean step3RequestedTransport(RequestContext request) {
        StunMessageDecoder message = request.message();
        requested.read(message);
        if (requested.transport < 0 || requested.lifetimeSeconds == Lifetime.MALFORMED) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return false;
        }
        if (requested.transport != RequestedTransport.UDP
                && !(requested.tcp() && request.client().isStream())) {
            request.signedError(ErrorCode.UNSUPPORTED_TRANSPORT_PROTOCOL);
            return false;
        }
        return true;
    }

    /**
     * RFC 6062 §5.1: a TCP allocation has no DONT-FRAGMENT, EVEN-PORT or RESERVATION-TOKEN ("the
     * server MUST reject the request with a 400"), and, Tern's choice, no second family.
     */
    private boolean rfc6062TcpAttributes(RequestContext request) {
        if (requested.tcp()
                && (request.message().has(AttributeType.DONT_FRAGMENT)
                        || requested.hasToken
                        || requested.evenPort != EvenPort.ABSENT
                        || requested.hasAdditional())) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return false;
        }
        return true;
    }

    /**
     * Step 5: "If yes [a RESERVATION-TOKEN], and the request also contains an EVEN-PORT or
     * REQUESTED-ADDRESS-FAMILY or ADDITIONAL-ADDRESS-FAMILY attribute, the server rejects the request
     * with a 400 (Bad Request) error." Step 6: "The server checks if the request contains both
     * REQUESTED-ADDRESS-FAMILY and ADDITIONAL-ADDRESS-FAMILY attributes. If yes, then the server
     * rejects the request with a 400 (Bad Request) error." A malformed EVEN-PORT or
     * REQUESTED-ADDRESS-FAMILY is a 400 too.
     */
    private boolean steps5And6AttributesExclusive(RequestContext request) {
        boolean hasFamily = requested.hasFamily();
        boolean hasAdditional = requested.hasAdditional();
        if (requested.hasToken && (requested.evenPort != EvenPort.ABSENT || hasFamily || hasAdditional)
                || hasFamily && hasAdditional
                || requested.evenPort == EvenPort.MALFORMED
                || requested.family == AddressFamily.MALFORMED) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return false;
        }
        return true;
    }

    /**
     * Step 7, first half: "If the server does not support the address family requested by the
     * client in REQUESTED-ADDRESS-FAMILY [...], it MUST generate an Allocate error response, and it
     * MUST include an ERROR-CODE attribute with the 440 (Address Family not Supported) response
     * code." A family other than IPv4 and IPv6 is one no server supports.
     */
    private boolean step7FamilyKnown(RequestContext request) {
        if (requested.hasFamily() && !requested.wantV6() && requested.family != AddressAttribute.WIRE_FAMILY_IPV4) {
            request.signedError(ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED);
            return false;
        }
        return true;
    }

    /**
     * Step 9: "The server checks if the request contains an ADDITIONAL-ADDRESS-FAMILY attribute. If
     * yes, and the attribute value is 0x01 (IPv4 address family), then the server rejects the
     * request with a 400 (Bad Request) error." Any value but IPv6 is refused the same way.
     */
    private boolean step9AdditionalFamily(RequestContext request) {
        if (requested.hasAdditional() && requested.additional != AddressAttribute.WIRE_FAMILY_IPV6) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return false;
        }
        return true;
    }

    /**
     * Step 7, second half: "[...] or if the allocation of the requested address family is disabled
     * by local policy" (440), and "If the REQUESTED-ADDRESS-FAMILY attribute is absent and the
     * server does not support the IPv4 address family, the server MUST include an ERROR-CODE
     * attribute with the 440 (Address Family not Supported) response code." A family without relay
     * ports is one this server does not serve.
     */
    private boolean step7FamilyServed(RequestContext request) {
        SharedState state = engine.state();
        boolean wantV6 = requested.wantV6();
        if (!wantV6 && !state.hasPorts(false) || wantV6 && !state.hasPorts(true)) {
            request.signedError(ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED);
            return false;
        }
        return true;
    }

    /** Step 5, the token itself: a RESERVATION-TOKEN that is not 8 bytes is a 400. */
    private boolean step5TokenWellFormed(RequestContext request) {
        if (requested.hasToken && !ReservationToken.isWellFormed(request.message())) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return false;
        }
        return true;
    }

    /**
     * Drain mode without an alternate to send the client to: no new allocations, 508 (Insufficient
     * Capacity), as coturn's drain answers.
     */
    private boolean notDraining(RequestContext request) {
        if (engine.state().draining()) {
            request.signedError(ErrorCode.INSUFFICIENT_CAPACITY);
            return false;
        }
        return true;
    }

    /**
     * Step 10: "At any point, the server MAY choose to reject the request with a 486 (Allocation
     * Quota Reached) error if it feels the client is trying to exceed some locally defined
     * allocation quota." Tern's quotas are per user and in total.
     */
    private boolean step10Quota(RequestContext request) {
        if (!engine.state().acquireAllocation(request.credential().user())) {
            request.signedError(ErrorCode.ALLOCATION_QUOTA_REACHED);
            return false;
        }
        return true;
    }

    /**
     * Step 10 again, fleet-wide ({@code --cluster-redis}): the local quotas passed, now the fleet's
     * count decides. The lease is asked for while the relay sockets are bound, so the Allocate waits
     * for the slower of the two, not for both in turn; {@link #onLeaseDecided} carries on.
     */
    private void step10FleetQuota(Allocation allocation) {
        if (!engine.config.clusterLeases()) {
            return;
        }
        long leaseId = engine.newLeaseId();
        allocation.leaseId(leaseId);
        allocation.opening().waitingLease = true;
        engine.undecidedLeases.put(leaseId, allocation);
        engine.commands.acquireLease(leaseId, allocation.credential().user());
    }

    /**
     * The fleet decided the lease of an allocation being opened. A spent cluster-wide quota is
     * step 10's 486. An undecided lease (the store unreachable) falls back on the local quotas,
     * which already passed, or, failing closed, is a 508: the client asked for nothing beyond its
     * quota, the server cannot vouch for capacity, and 508 tells it to try later or elsewhere
     * (RFC 8656 §7.2), where 486 would blame its quota.
     */
    public void onLeaseDecided(Allocation allocation, LeaseDecision decision, long nowNs) {
        RelayOpening opening = allocation.opening();
        if (opening == null || !opening.waitingLease) {
            return;
        }
        opening.waitingLease = false;
        if (decision == LeaseDecision.REFUSED) {
            engine.counters.leaseRefused();
            fail(allocation, opening, ErrorCode.ALLOCATION_QUOTA_REACHED, nowNs);
            return;
        }
        if (decision == LeaseDecision.UNAVAILABLE) {
            engine.counters.leaseUnavailable();
            if (engine.config.clusterFailClosed()) {
                fail(allocation, opening, ErrorCode.INSUFFICIENT_CAPACITY, nowNs);
                return;
            }
        }
        if (!opening.waiting()) {
            complete(allocation, opening, nowNs);
        }
    }

    /** The allocation, opening: its lifetime and port wishes, and the answer it will send once bound. */
    private Allocation newAllocation(RequestContext request) {
        Allocation allocation = new Allocation(
                request.client(),
                request.protocol(),
                request.credential(),
                AllocationTable.clientKey(
                        request.client().listenerId(),
                        request.client().connectionId(),
                        request.client().address()),
                requested.transport);
        RelayOpening opening = new RelayOpening();
        request.remember(opening.answer);
        opening.lifetimeNs = Allocation.lifetimeNs(
                requested.lifetimeSeconds, engine.config.defaultLifetimeNs(), engine.config.maxLifetimeNs());
        opening.evenPort = requested.evenPort != EvenPort.ABSENT;
        opening.reserveNext = requested.evenPort == EvenPort.EVEN_RESERVE_NEXT;
        opening.v6Optional = requested.hasAdditional();
        allocation.opening(opening);
        return allocation;
    }

    /**
     * Step 5: "Otherwise, it checks to see if the token is valid [...]. If the token is not valid
     * for some reason, the server rejects the request with a 508 (Insufficient Capacity) error."
     * Step 8: "The server checks if the request contains an EVEN-PORT attribute with the R bit set
     * to 1. [...] if the server does not satisfy the request, then the server MUST reject the request
     * with a 508 (Insufficient Capacity) error." Takes the IPv4 relay port: the reserved one, an even
     * one (with the next reserved for the R bit) or any; none left is 508 too. Tern does not refuse
     * EVEN-PORT with the R bit beside ADDITIONAL-ADDRESS-FAMILY (step 8's 400): its reservation is
     * made for the IPv4 relay only.
     */
    private boolean steps5And8Ipv4Port(RequestContext request, Allocation allocation) {
        if (requested.wantV6()) {
            return true;
        }
        SharedState state = engine.state();
        RelayOpening opening = allocation.opening();
        int port = requested.hasToken
                ? state.claimPort(ReservationToken.read(request.message()), request.nowNs())
                : state.acquirePort(false, opening.evenPort, opening.reserveNext, opening.refusedPortsV4, 0);
        opening.reservedPort = requested.hasToken;
        if (port < 0) {
            state.releaseAllocation(request.credential().user());
            request.signedError(ErrorCode.INSUFFICIENT_CAPACITY);
            return false;
        }
        open(allocation, false, port);
        return true;
    }

    /**
     * Step 9: "Otherwise, the server MUST mark this request as a dual allocation request" (and an
     * IPv6 REQUESTED-ADDRESS-FAMILY asks for IPv6 alone). Takes the IPv6 relay port: for an IPv6
     * allocation none left is 508; for the additional family of a dual allocation the IPv4 relay is
     * still granted, and the answer carries ADDRESS-ERROR-CODE for IPv6 instead.
     */
    private boolean step9Ipv6Port(RequestContext request, Allocation allocation) {
        boolean wantV6 = requested.wantV6();
        if (!wantV6 && !requested.hasAdditional()) {
            return true;
        }
        SharedState state = engine.state();
        RelayOpening opening = allocation.opening();
        int port = state.acquirePort(true, opening.evenPort && wantV6, false, opening.refusedPortsV6, 0);
        if (port >= 0) {
            open(allocation, true, port);
        } else if (wantV6) {
            state.releaseAllocation(request.credential().user());
            request.signedError(ErrorCode.INSUFFICIENT_CAPACITY);
            return false;
        } else {
            opening.addressErrorCode =
                    state.hasPorts(true) ? ErrorCode.INSUFFICIENT_CAPACITY : ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED;
        }
        return true;
    }

    /** Asks the transport for a relay socket of the allocation on {@code port}. */
    private void open(Allocation allocation, boolean ipv6, int port) {
        TurnEngineConfig config = engine.config;
        candidate.set(ipv6 ? config.relayAddressV6() : config.relayAddressV4()).port(port);
        int relayId = engine.newRelayId();
        if (ipv6) {
            allocation.relayV6(relayId, candidate);
            allocation.opening().waitingV6 = true;
        } else {
            allocation.relayV4(relayId, candidate);
            allocation.opening().waitingV4 = true;
        }
        engine.allocations.indexRelay(relayId, allocation);
        engine.commands.openRelay(relayId, candidate, allocation.relayProtocol());
    }

    /**
     * The transport bound (or could not bind) relay socket {@code relayId} of an allocation being
     * opened. A port another process holds is replaced by another from the pool, up to
     * {@link RelayOpening#MAX_ATTEMPTS}; once every wanted family is bound the Allocate is answered.
     */
    public void onRelayOpened(Allocation allocation, int relayId, boolean bound, long nowNs) {
        RelayOpening opening = allocation.opening();
        boolean ipv6 = relayId == allocation.relayIdV6();
        if (opening == null || !ipv6 && relayId != allocation.relayIdV4()) {
            return;
        }
        if (bound) {
            if (ipv6) {
                opening.waitingV6 = false;
            } else {
                opening.waitingV4 = false;
            }
        } else if (!retry(allocation, opening, ipv6, nowNs)) {
            return;
        }
        if (!opening.waiting()) {
            complete(allocation, opening, nowNs);
        }
    }

    /** Tries another port after a refused one; false when the allocation failed (and was answered). */
    private boolean retry(Allocation allocation, RelayOpening opening, boolean ipv6, long nowNs) {
        SharedState state = engine.state();
        int refused =
                ipv6 ? allocation.relayedV6().port() : allocation.relayedV4().port();
        int relayId = ipv6 ? allocation.relayIdV6() : allocation.relayIdV4();
        engine.allocations.unindexRelay(relayId);
        state.releasePort(ipv6, refused);
        if (!ipv6 && opening.reserveNext) {
            state.releasePort(false, refused + 1);
        }
        int attempts = ipv6 ? opening.attemptsV6++ : opening.attemptsV4++;
        int[] refusedPorts = ipv6 ? opening.refusedPortsV6 : opening.refusedPortsV4;
        refusedPorts[attempts] = refused;
        int port = -1;
        if (!opening.reservedPort || ipv6) {
            int limit = Math.min(RelayOpening.MAX_ATTEMPTS, state.portCount(ipv6));
            if (attempts + 1 < limit) {
                port = state.acquirePort(
                        ipv6,
                        opening.evenPort && (!ipv6 || allocation.relayedV4() == null),
                        !ipv6 && opening.reserveNext,
                        refusedPorts,
                        attempts + 1);
            }
        }
        if (port >= 0) {
            open(allocation, ipv6, port);
            return true;
        }
        if (ipv6) {
            allocation.relayV6(-1, null);
            opening.waitingV6 = false;
        } else {
            allocation.relayV4(-1, null);
            opening.waitingV4 = false;
        }
        if (ipv6 && opening.v6Optional) {
            opening.addressErrorCode = ErrorCode.INSUFFICIENT_CAPACITY;
            return true;
        }
        fail(allocation, opening, ErrorCode.INSUFFICIENT_CAPACITY, nowNs);
        return false;
    }

    private void fail(Allocation allocation, RelayOpening opening, int errorCode, long nowNs) {
        engine.counters.error(errorCode);
        engine.responder.startError(StunMethod.ALLOCATE, opening.answer.tidHigh(), opening.answer.tidLow(), errorCode);
        engine.responder.finishSigned(allocation.endpoint(), opening.answer, nowNs);
        engine.deleteAllocation(allocation);
    }

    /** Every socket is bound: the allocation starts its life and the Allocate gets its answer. */
    private void complete(Allocation allocation, RelayOpening opening, long nowNs) {
        allocation.opening(null);
        allocation.refresh(nowNs, opening.lifetimeNs, engine.timers);
        engine.counters.allocationOpened(allocation.protocol());
        long token = 0;
        if (opening.reserveNext && allocation.relayIdV4() >= 0) {
            token = engine.random.nextLong();
            engine.state()
                    .reservePort(
                            token, allocation.relayedV4().port() + 1, nowNs + TurnEngineConfig.RESERVATION_LIFETIME_NS);
            engine.scheduleReservationExpiry(nowNs + TurnEngineConfig.RESERVATION_LIFETIME_NS);
        }
        TurnEngineConfig config = engine.config;
        StunMessageWriter writer = engine.responder.start(
                StunMethod.ALLOCATE, StunClass.SUCCESS_RESPONSE, opening.answer.tidHigh(), opening.answer.tidLow());
        if (allocation.relayIdV4() >= 0) {
            writer.putXorAddress(
                    AttributeType.XOR_RELAYED_ADDRESS,
                    advertised(allocation.relayedV4(), config.advertisedAddressV4()));
        }
        if (allocation.relayIdV6() >= 0) {
            writer.putXorAddress(
                    AttributeType.XOR_RELAYED_ADDRESS,
                    advertised(allocation.relayedV6(), config.advertisedAddressV6()));
        }
        if (opening.addressErrorCode != 0) {
            AddressErrorCode.write(
                    writer, AddressAttribute.WIRE_FAMILY_IPV6, opening.addressErrorCode, addressErrorScratch);
        }
        Lifetime.write(writer, TimeUnit.NANOSECONDS.toSeconds(opening.lifetimeNs));
        if (token != 0) {
            ReservationToken.write(writer, token, tokenScratch);
        }
        writer.putXorAddress(AttributeType.XOR_MAPPED_ADDRESS, allocation.client());
        engine.responder.finishSigned(allocation.endpoint(), opening.answer, nowNs);
    }

    /** {@code external-ip}: the advertised address, with the bound port. */
    private TransportAddress advertised(TransportAddress bound, TransportAddress external) {
        if (external == null) {
            return bound;
        }
        return candidate.set(external).port(bound.port());
    }

    /** The Allocate's attributes that decide its checks, read once per request into one reused holder. */
    private static final class RequestedAttributes {
        int transport;
        long lifetimeSeconds;
        boolean hasToken;
        int evenPort;
        int family;
        int additional;

        void read(StunMessageDecoder message) {
            transport = RequestedTransport.read(message);
            lifetimeSeconds = Lifetime.readSeconds(message);
            hasToken = ReservationToken.isPresent(message);
            evenPort = EvenPort.read(message);
            family = AddressFamily.read(message, AttributeType.REQUESTED_ADDRESS_FAMILY);
            additional = AddressFamily.read(message, AttributeType.ADDITIONAL_ADDRESS_FAMILY);
        }

        boolean tcp() {
            return transport == RequestedTransport.TCP;
        }

        boolean hasFamily() {
            return family != AddressFamily.ABSENT;
        }

        boolean hasAdditional() {
            return additional != AddressFamily.ABSENT;
        }

        boolean wantV6() {
            return family == AddressAttribute.WIRE_FAMILY_IPV6;
        }
    }
}
