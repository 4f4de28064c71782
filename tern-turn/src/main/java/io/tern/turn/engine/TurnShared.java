package io.tern.turn.engine;

import io.tern.turn.auth.CredentialStore;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.redirect.Alternates;

/**
 * What the engines of all relay threads share. The credentials (whose REST key cache is
 * concurrent), the peer policy and the nonce key never change after start; {@link #state} is the
 * one mutable part, behind its own narrow interface, and {@link #alternates} the adapter's latest
 * word on where to redirect Allocates.
 *
 * @param nonceKey        HMAC key of the stateless nonces, so a nonce from one thread (or, with a
 *                        shared {@code stateless-nonce-secret}, one node) works on another
 * @param nonceLifetimeNs how long a nonce stays valid ({@code stale-nonce})
 * @param alternates      where Allocates are redirected (300 Try Alternate), set by the adapter
 */
public record TurnShared(
        CredentialStore credentials,
        PeerAddressPolicy peerPolicy,
        byte[] nonceKey,
        long nonceLifetimeNs,
        SharedState state,
        Alternates alternates) {

    /** Without alternates: Allocates are never redirected, and refused with 508 while draining. */
    public TurnShared(
            CredentialStore credentials,
            PeerAddressPolicy peerPolicy,
            byte[] nonceKey,
            long nonceLifetimeNs,
            SharedState state) {
        this(credentials, peerPolicy, nonceKey, nonceLifetimeNs, state, new Alternates());
    }
}
