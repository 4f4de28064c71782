package io.tern.nostr.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One client connection's state; the engine's connection table owns these. */
final class Connection {
    /** NIP-42 lets a client authenticate several keys; this bounds how many one connection holds. */
    static final int MAX_AUTHENTICATED_PUBKEYS = 16;

    final long id;
    final String ip;
    /** Host and port the client connected to (its {@code Host} header), for NIP-42's relay tag. */
    final String host;

    final String challenge;
    /** False once closed: a write still in flight then completes without an OK. */
    boolean open = true;

    final List<String> authenticated = new ArrayList<>(1);
    final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
    /** COUNT requests waiting for the store, by subscription id, holding the request id. */
    final Map<String, Long> counts = new HashMap<>();

    Connection(long id, String ip, String host, String challenge) {
        this.id = id;
        this.ip = ip;
        this.host = host;
        this.challenge = challenge;
    }

    boolean isAuthenticated() {
        return !authenticated.isEmpty();
    }

    void authenticate(String pubkey) {
        if (authenticated.contains(pubkey)) {
            return;
        }
        if (authenticated.size() == MAX_AUTHENTICATED_PUBKEYS) {
            authenticated.remove(0);
        }
        authenticated.add(pubkey);
    }
}
