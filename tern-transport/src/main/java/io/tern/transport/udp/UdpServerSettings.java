package io.tern.transport.udp;

import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnShared;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * @param listenAddresses client-facing UDP addresses (listener ids are their indexes)
 * @param relayThreads    engines, each on its own event loop with its own SO_REUSEPORT listener
 * @param timerPeriodNs   how often each engine's timers are polled
 */
public record UdpServerSettings(
        List<InetSocketAddress> listenAddresses,
        int relayThreads,
        TurnEngineConfig engineConfig,
        TurnShared shared,
        long timerPeriodNs) {
}
