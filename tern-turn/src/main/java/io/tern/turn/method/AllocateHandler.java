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

    public AllocateHandler(EngineState engine) {
        this.engine = engine;
    }

    public void handle(RequestContext request) {
        StunMessageDecoder message = request.message();
        // Step 1 (authentication) is done. Step 2: a 5-tuple already in use is 437.
        if (request.allocation() != null) {
            request.signedError(ErrorCode.ALLOCATION_MISMATCH);
            return;
        }
        // Step 3: REQUESTED-TRANSPORT must be there and name UDP, or TCP (RFC 6062 §5.1) over a
        // TCP or TLS control connection.
        int transport = RequestedTransport.read(message);
        long requestedLifetime = Lifetime.readSeconds(message);
        if (transport < 0 || requestedLifetime == Lifetime.MALFORMED) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        boolean tcp = transport == RequestedTransport.TCP;
        if (transport != RequestedTransport.UDP && !(tcp && request.client().isStream())) {
            request.signedError(ErrorCode.UNSUPPORTED_TRANSPORT_PROTOCOL);
            return;
        }
        boolean hasToken = ReservationToken.isPresent(message);
        int evenPort = EvenPort.read(message);
        int family = AddressFamily.read(message, AttributeType.REQUESTED_ADDRESS_FAMILY);
        int additional = AddressFamily.read(message, AttributeType.ADDITIONAL_ADDRESS_FAMILY);
        // RFC 6062 §5.1: a TCP allocation has no DONT-FRAGMENT, EVEN-PORT or RESERVATION-TOKEN
        // (and, Tern's choice, no second family).
        if (tcp
                && (message.has(AttributeType.DONT_FRAGMENT)
                        || hasToken
                        || evenPort != EvenPort.ABSENT
                        || additional != AddressFamily.ABSENT)) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        // Steps 5-6: RESERVATION-TOKEN excludes EVEN-PORT and both family attributes, which exclude each other.
        boolean hasFamily = family != AddressFamily.ABSENT;
        boolean hasAdditional = additional != AddressFamily.ABSENT;
        if (hasToken && (evenPort != EvenPort.ABSENT || hasFamily || hasAdditional)
                || hasFamily && hasAdditional
                || evenPort == EvenPort.MALFORMED
                || family == AddressFamily.MALFORMED) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        boolean wantV6 = family == AddressAttribute.WIRE_FAMILY_IPV6;
        if (hasFamily && !wantV6 && family != AddressAttribute.WIRE_FAMILY_IPV4) {
            request.signedError(ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED);
            return;
        }
        // Step 8: ADDITIONAL-ADDRESS-FAMILY can only ask for IPv6.
        if (hasAdditional && additional != AddressAttribute.WIRE_FAMILY_IPV6) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        boolean wantV4 = !wantV6;
        SharedState state = engine.state();
        if (wantV4 && !state.hasPorts(false) || wantV6 && !state.hasPorts(true)) {
            request.signedError(ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED);
            return;
        }
        if (hasToken && !ReservationToken.isWellFormed(message)) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        // Drain mode (Tern's, as coturn's): no new allocations.
        if (state.draining()) {
            request.signedError(ErrorCode.INSUFFICIENT_CAPACITY);
            return;
        }
        // Step 9: quotas.
        String user = request.credential().user();
        if (!state.acquireAllocation(user)) {
            request.signedError(ErrorCode.ALLOCATION_QUOTA_REACHED);
            return;
        }
        Allocation allocation = new Allocation(
                request.client(),
                request.protocol(),
                request.credential(),
                AllocationTable.clientKey(
                        request.client().listenerId(),
                        request.client().connectionId(),
                        request.client().address()),
                transport);
        RelayOpening opening = new RelayOpening();
        request.remember(opening.answer);
        opening.lifetimeNs = Allocation.lifetimeNs(
                requestedLifetime, engine.config.defaultLifetimeNs(), engine.config.maxLifetimeNs());
        opening.evenPort = evenPort != EvenPort.ABSENT;
        opening.reserveNext = evenPort == EvenPort.EVEN_RESERVE_NEXT;
        opening.v6Optional = hasAdditional;
        allocation.opening(opening);

        // Step 5 (token) and step 7 (EVEN-PORT): choose the ports.
        if (wantV4) {
            int port = hasToken
                    ? state.claimPort(ReservationToken.read(message), request.nowNs())
                    : state.acquirePort(false, opening.evenPort, opening.reserveNext, opening.refusedPortsV4, 0);
            opening.reservedPort = hasToken;
            if (port < 0) {
                state.releaseAllocation(user);
                request.signedError(ErrorCode.INSUFFICIENT_CAPACITY);
                return;
            }
            open(allocation, false, port);
        }
        if (wantV6 || hasAdditional) {
            int port = state.acquirePort(true, opening.evenPort && !wantV4, false, opening.refusedPortsV6, 0);
            if (port >= 0) {
                open(allocation, true, port);
            } else if (wantV6) {
                state.releaseAllocation(user);
                request.signedError(ErrorCode.INSUFFICIENT_CAPACITY);
                return;
            } else {
                opening.addressErrorCode =
                        state.hasPorts(true) ? ErrorCode.INSUFFICIENT_CAPACITY : ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED;
            }
        }
        engine.allocations.add(allocation);
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
        fail(allocation, opening, nowNs);
        return false;
    }

    private void fail(Allocation allocation, RelayOpening opening, long nowNs) {
        engine.counters.error(ErrorCode.INSUFFICIENT_CAPACITY);
        engine.responder.startError(
                StunMethod.ALLOCATE,
                opening.answer.tidHigh(),
                opening.answer.tidLow(),
                ErrorCode.INSUFFICIENT_CAPACITY);
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
}
