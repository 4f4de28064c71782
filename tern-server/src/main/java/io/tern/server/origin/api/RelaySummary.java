package io.tern.server.origin.api;

import java.util.Map;

/**
 * The TURN relay at a glance, for {@code GET /api/v1/turn}.
 *
 * @param allocationsByTransport allocations open now, by the client's transport ({@code udp}, {@code tcp}, {@code tls})
 * @param relayedBitsPerSecond   application data relayed both ways, over the last interval, times 8
 */
public record RelaySummary(Map<String, Long> allocationsByTransport, long relayedBitsPerSecond) {
    public RelaySummary {
        allocationsByTransport = Map.copyOf(allocationsByTransport);
    }
}
