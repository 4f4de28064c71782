package io.tern.turn.engine;

import io.tern.turn.auth.CredentialStore;
import io.tern.turn.policy.PeerAddressPolicy;

/**
 * What the engines of all relay threads share. The credentials (whose REST key cache is
 * concurrent), the peer policy and the nonce key never change after start; {@link #state} is the
 * one mutable part, behind its own narrow interface.
 *
 * @param nonceKey        HMAC key of the stateless nonces, so a nonce from one thread works on another
 * @param nonceLifetimeNs how long a nonce stays valid ({@code stale-nonce})
 */
public record TurnShared(
        CredentialStore credentials,
        PeerAddressPolicy peerPolicy,
        byte[] nonceKey,
        long nonceLifetimeNs,
        SharedState state) {}
