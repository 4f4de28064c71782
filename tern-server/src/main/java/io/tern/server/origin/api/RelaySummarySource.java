package io.tern.server.origin.api;

/**
 * The seam between the origin's API and a TURN relay in the same process. {@code tern turn} and
 * {@code tern origin} are separate commands, each its own process, so today the origin has no
 * relay and {@code GET /api/v1/turn} answers 404; a command that starts both hands the API a
 * source reading the relay's engine counters (allocations by transport, relayed bytes).
 */
@FunctionalInterface
public interface RelaySummarySource {
    /** Called on an HTTP event loop: reads counters, never blocks. */
    RelaySummary summary();
}
