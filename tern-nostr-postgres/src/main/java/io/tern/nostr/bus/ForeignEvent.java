package io.tern.nostr.bus;

import io.tern.nostr.event.SerializedEvent;

/**
 * An event another node accepted, as the bus hands it over: its id, its wire JSON (already verified
 * by the node that accepted it), and whether it was stored there or was ephemeral.
 *
 * @param seq the stored event's sequence id, or -1 for an ephemeral one
 */
public record ForeignEvent(String id, long createdAt, byte[] json, boolean ephemeral, long seq)
        implements SerializedEvent {}
