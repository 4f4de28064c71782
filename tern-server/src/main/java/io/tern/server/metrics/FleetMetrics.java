package io.tern.server.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tern.cluster.FleetNode;
import io.tern.cluster.RedisFleet;

/**
 * The fleet's figures ({@code --cluster-redis}) beside the relay's own: this node's exchanges with
 * Redis, and the cluster as the registry shows it. Each node exports its view; Prometheus sums.
 * The {@code node} label is bounded by the fleet's size (the registry reads at most 1024 nodes).
 */
final class FleetMetrics {
    private FleetMetrics() {}

    static void register(PrometheusRegistry registry, RedisFleet fleet) {
        new MetricTable(registry)
                .gauge(
                        "tern_fleet_nodes_live",
                        "Relays registered in the fleet and live, this one included",
                        () -> fleet.liveNodes().size())
                .gauge(
                        "tern_fleet_node_allocations",
                        "Allocations each live node holds, as its registration in Redis says",
                        MetricTable.labels("node"),
                        sink -> {
                            for (FleetNode node : fleet.liveNodes()) {
                                sink.sample(node.allocations(), node.nodeId());
                            }
                        })
                .gauge(
                        "tern_fleet_nodes_draining",
                        "Live nodes that take no new allocations",
                        () -> fleet.liveNodes().stream()
                                .filter(FleetNode::draining)
                                .count())
                .gauge(
                        "tern_fleet_leases_held",
                        "Leases this node holds in the fleet's count: its allocations",
                        fleet::heldLeases)
                .counter(
                        "tern_fleet_quota_refusals",
                        "Allocates refused (486) because a fleet-wide user-quota or total-quota was spent",
                        fleet::quotaRefusals)
                .counter(
                        "tern_fleet_leases_undecided",
                        "Allocates decided without Redis (local quotas, or 508 with cluster-redis-fail closed)",
                        fleet::undecidedLeases)
                .gauge(
                        "tern_fleet_redis_up",
                        "1 while the last exchange with Redis worked, else 0",
                        () -> fleet.reachable() ? 1 : 0)
                .counter("tern_fleet_redis_round_trips", "Commands sent to Redis", fleet::roundTrips)
                .counter(
                        "tern_fleet_redis_errors",
                        "Commands to Redis that failed: unreachable, timed out, or refused",
                        fleet::errors)
                .counter("tern_fleet_redis_outages", "Times Redis became unreachable", fleet::outages)
                .counter(
                        "tern_fleet_malformed_values",
                        "Values in Redis this node could not read, refused or skipped",
                        fleet::malformedValues);
    }
}
