package io.tern.turn.engine;

import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import java.util.function.LongSupplier;

/**
 * What the engines of all relay threads share. Each member is either immutable or synchronized,
 * and none is touched per relayed packet.
 *
 * @param portsV4      the IPv4 relay port range, or null without an IPv4 relay address
 * @param portsV6      the IPv6 relay port range, or null without an IPv6 relay address
 * @param nonceKey     HMAC key of the stateless nonces
 * @param nonceLifetimeNs how long a nonce stays valid ({@code stale-nonce})
 * @param epochSeconds wall clock in seconds since 1970, for REST credential expiry only
 * @param draining     when true, new allocations are refused (drain mode) and existing ones run out
 */
public record TurnShared(
        CredentialStore credentials,
        AllocationQuota quota,
        RelayPortPool portsV4,
        RelayPortPool portsV6,
        PeerAddressPolicy peerPolicy,
        byte[] nonceKey,
        long nonceLifetimeNs,
        LongSupplier epochSeconds,
        java.util.concurrent.atomic.AtomicBoolean draining) {}
