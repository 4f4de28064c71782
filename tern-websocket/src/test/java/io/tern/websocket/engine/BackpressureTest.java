package io.tern.websocket.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.websocket.engine.WebSocketEngine.TransportAction;
import org.junit.jupiter.api.Test;

/** The engine's slow-reader rules, on the injected clock: water marks, the timeout, the hard cap. */
class BackpressureTest {
    private static final long NOW_NS = 7_000_000_000L;
    private static final BackpressureConfig LIMITS = new BackpressureConfig(100, 1000, 5000, 3_000);
    private final EnginePeer peer =
            EnginePeer.openServer(WebSocketConfig.defaults().withBackpressure(LIMITS), NOW_NS);

    @Test
    void aBacklogAboveTheHighWaterMarkMakesTheConnectionUnwritableUntilItFallsBelowTheLow() {
        peer.backlog(1000, NOW_NS);
        assertThat(peer.writability).as("at the mark is still writable").isEmpty();
        peer.backlog(1001, NOW_NS);
        assertThat(peer.writability).containsExactly(false);
        assertThat(peer.engine.writable()).isFalse();
        assertThat(peer.engine.nextDeadlineNs()).isEqualTo(NOW_NS + 3_000);
        peer.backlog(100, NOW_NS + 1);
        assertThat(peer.writability).as("at the low mark is still unwritable").containsExactly(false);
        peer.backlog(99, NOW_NS + 2);
        assertThat(peer.writability).containsExactly(false, true);
        assertThat(peer.engine.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
        peer.timeout(NOW_NS + 10_000);
        assertThat(peer.engine.state()).isEqualTo(WebSocketEngine.State.OPEN);
    }

    @Test
    void aReaderThatStaysUnwritablePastTheTimeoutIsClosedAtOnce() {
        peer.backlog(2000, NOW_NS);
        peer.backlog(1500, NOW_NS + 1_000);
        peer.timeout(NOW_NS + 2_999);
        assertThat(peer.engine.state()).isEqualTo(WebSocketEngine.State.OPEN);
        peer.timeout(NOW_NS + 3_000);
        assertThat(peer.closeCode).isEqualTo(CloseCodes.ABNORMAL);
        assertThat(peer.closeReason).isEqualTo("peer stopped reading");
        assertThat(peer.wire.size())
                .as("no Close frame for a peer that does not read")
                .isZero();
        assertThat(peer.engine.transportAction()).isEqualTo(TransportAction.CLOSE);
    }

    @Test
    void aBacklogAboveTheHardCapClosesAtOnce() {
        peer.backlog(5000, NOW_NS);
        assertThat(peer.engine.state()).isEqualTo(WebSocketEngine.State.OPEN);
        peer.backlog(5001, NOW_NS);
        assertThat(peer.closeCode).isEqualTo(CloseCodes.ABNORMAL);
        assertThat(peer.engine.transportAction()).isEqualTo(TransportAction.CLOSE);
        assertThat(peer.engine.sendText(new byte[1], 0, 1)).isFalse();
    }

    @Test
    void theSlowReaderClockAlsoRunsWhileClosing() {
        peer.engine.close(CloseCodes.NORMAL, "", NOW_NS);
        peer.backlog(2000, NOW_NS);
        long closeTimeoutNs = WebSocketConfig.defaults().closeTimeoutNs();
        assertThat(peer.engine.nextDeadlineNs()).isEqualTo(NOW_NS + Math.min(3_000, closeTimeoutNs));
    }
}
