package io.tern.srt;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Caller and listener engines against each other over a simulated link. */
class SrtEngineTest {
    static final String PASS = "correct-horse-battery";

    static SimulatedNetwork pair(int listenerLatency, int callerLatency, String listenerPass, SrtCaller.Options opts) {
        SrtListener l = new SrtListener(SrtSettings.defaults().withLatencyMs(listenerLatency), new Random(1));
        SrtCaller c = new SrtCaller(SrtSettings.defaults().withLatencyMs(callerLatency), opts, new Random(2));
        SimulatedNetwork n = new SimulatedNetwork(l, c);
        n.owner = (sid, peer) -> sid.resource().startsWith("live/")
                ? StreamAuthorizer.Decision.accept(listenerPass)
                : StreamAuthorizer.Decision.reject(RejectReason.X_FORBIDDEN);
        return n;
    }

    static SrtEvent.Connected connected(SimulatedNetwork n) {
        return (SrtEvent.Connected) n.listenerEvents.stream()
                .filter(e -> e instanceof SrtEvent.Connected)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void everyPacketArrivesInOrderThroughLossAndReordering() {
        SimulatedNetwork n = pair(300, 120, PASS, SrtCaller.Options.of("publish:live/cam1", PASS, 32));
        n.lossToListener = 0.10;
        n.lossToCaller = 0.10;
        n.jitterNs = 5_000_000L;
        n.connect();
        n.runUntil(n.nowNs + 2_000_000_000L);
        assertThat(n.caller.connected())
                .as("connected despite loss: %s", n.callerEvents)
                .isTrue();
        SrtEvent.Connected c = connected(n);
        assertThat(c.streamId().resource()).isEqualTo("live/cam1");
        assertThat(c.streamId().mode()).isEqualTo(StreamId.Mode.PUBLISH);
        assertThat(c.latencyMs()).as("max of both sides").isEqualTo(300);
        assertThat(c.keyLength()).isEqualTo(32);

        n.stream(3000, 1_000_000L, 1316);
        n.runUntil(n.nowNs + 1_000_000_000L);
        assertThat(n.delivered)
                .as("%s / %s", n.listener.stats(c.sessionId()), n.caller.stats())
                .hasSize(3000);
        for (int i = 0; i < 3000; i++) {
            assertThat(SimulatedNetwork.number(n.delivered.get(i))).isEqualTo(i);
        }
        SrtStats s = n.listener.stats(c.sessionId());
        assertThat(s.packetsLost()).isGreaterThan(100);
        assertThat(s.packetsRetransmittedReceived()).isGreaterThan(100);
        assertThat(s.packetsDroppedTooLate()).isZero();
        assertThat(s.packetsUndecryptable()).isZero();
        assertThat(s.rttUs()).isBetween(35_000L, 60_000L);
        assertThat(n.caller.stats().packetsRetransmitted()).isGreaterThan(100);
    }

    @Test
    void packetsLateBeyondTheLatencyAreDroppedAndCounted() {
        SimulatedNetwork n = pair(120, 120, null, SrtCaller.Options.of("publish:live/x", null, 16));
        n.connect();
        n.runUntil(n.nowNs + 500_000_000L);
        n.stream(100, 1_000_000L, 188);
        n.lossToListener = 1.0;
        n.stream(50, 1_000_000L, 188);
        // The gap is noticed, but every NAK is lost: nothing can be recovered before the next packets play.
        n.lossToListener = 0;
        n.lossToCaller = 1.0;
        n.stream(100, 1_000_000L, 188);
        n.runUntil(n.nowNs + 300_000_000L);
        n.lossToCaller = 0;
        n.runUntil(n.nowNs + 500_000_000L);
        SrtStats s = n.listener.stats(connected(n).sessionId());
        assertThat(s.packetsDroppedTooLate()).isEqualTo(50);
        assertThat(n.delivered).hasSize(200);
        int last = -1;
        for (byte[] p : n.delivered) {
            assertThat(SimulatedNetwork.number(p)).isGreaterThan(last);
            last = SimulatedNetwork.number(p);
        }
    }

    @Test
    void wrongPassphraseIsRefusedAsBadSecret() {
        SimulatedNetwork n = pair(120, 120, PASS, SrtCaller.Options.of("publish:live/x", "not-the-passphrase", 16));
        n.connect();
        n.runUntil(n.nowNs + 1_000_000_000L);
        assertThat(n.callerEvents)
                .singleElement()
                .isInstanceOfSatisfying(
                        SrtEvent.Rejected.class, r -> assertThat(r.code()).isEqualTo(RejectReason.BADSECRET));
        assertThat(n.listener.sessionCount()).isZero();
        assertThat(n.listenerEvents).noneMatch(e -> e instanceof SrtEvent.Connected);
    }

    @Test
    void missingPassphraseIsRefusedAsUnsecure() {
        SimulatedNetwork n = pair(120, 120, PASS, SrtCaller.Options.of("publish:live/x", null, 16));
        n.connect();
        n.runUntil(n.nowNs + 1_000_000_000L);
        assertThat(n.callerEvents)
                .singleElement()
                .isInstanceOfSatisfying(
                        SrtEvent.Rejected.class, r -> assertThat(r.code()).isEqualTo(RejectReason.UNSECURE));
        assertThat(n.listener.sessionCount()).isZero();
    }

    @Test
    void theOwnersRejectionCodeReachesTheCaller() {
        SimulatedNetwork n = pair(120, 120, null, SrtCaller.Options.of("publish:other/x", null, 16));
        n.connect();
        n.runUntil(n.nowNs + 1_000_000_000L);
        assertThat(n.callerEvents)
                .singleElement()
                .isInstanceOfSatisfying(
                        SrtEvent.Rejected.class, r -> assertThat(r.code()).isEqualTo(RejectReason.X_FORBIDDEN));
    }

    /** A listener whose owner answers nothing until the test does, and a caller publishing live/x. */
    static SimulatedNetwork undecided(String callerPass) {
        SrtListener l = new SrtListener(SrtSettings.defaults(), new Random(1));
        SrtCaller c = new SrtCaller(
                SrtSettings.defaults(), SrtCaller.Options.of("publish:live/x", callerPass, 16), new Random(2));
        return new SimulatedNetwork(l, c);
    }

    static SrtEvent.PublishRequested requested(SimulatedNetwork n) {
        return (SrtEvent.PublishRequested) n.listenerEvents.stream()
                .filter(e -> e instanceof SrtEvent.PublishRequested)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aPublishRequestWaitsForTheOwnersAcceptThroughTheCallersRepeats() {
        SimulatedNetwork n = undecided(PASS);
        n.connect();
        n.runUntil(n.nowNs + 1_000_000_000L);
        SrtEvent.PublishRequested request = requested(n);
        assertThat(request.streamId().resource()).isEqualTo("live/x");
        assertThat(request.peer()).isEqualTo(SimulatedNetwork.CALLER);
        assertThat(n.listenerEvents)
                .as("the repeated conclusions are not asked again")
                .filteredOn(e -> e instanceof SrtEvent.PublishRequested)
                .hasSize(1);
        assertThat(n.listener.pendingDecisions()).isGreaterThan(2);
        assertThat(n.listener.pendingHandshakes()).isEqualTo(1);
        assertThat(n.callerEvents).isEmpty();

        assertThat(n.listener.acceptPublish(request.requestId(), PASS, n.nowNs)).isTrue();
        n.drain();
        n.runUntil(n.nowNs + 500_000_000L);
        assertThat(n.callerEvents).singleElement().isInstanceOf(SrtEvent.Connected.class);
        assertThat(connected(n).streamId().resource()).isEqualTo("live/x");
        assertThat(n.listener.sessionCount()).isEqualTo(1);
        assertThat(n.listener.pendingHandshakes()).isZero();
        assertThat(n.listener.acceptPublish(request.requestId(), PASS, n.nowNs))
                .as("an answer counts once")
                .isFalse();
    }

    @Test
    void theOwnersRejectReachesTheCallerWithItsCode() {
        SimulatedNetwork n = undecided(null);
        n.connect();
        n.runUntil(n.nowNs + 300_000_000L);
        assertThat(n.listener.rejectPublish(requested(n).requestId(), RejectReason.X_UNAUTHORIZED, n.nowNs))
                .isTrue();
        n.drain();
        n.runUntil(n.nowNs + 500_000_000L);
        assertThat(n.callerEvents)
                .singleElement()
                .isInstanceOfSatisfying(
                        SrtEvent.Rejected.class, r -> assertThat(r.code()).isEqualTo(RejectReason.X_UNAUTHORIZED));
        assertThat(n.listener.sessionCount()).isZero();
        // A repeat already on the wire asks again; the caller has stopped, so that request lapses.
        n.runUntil(n.nowNs + SrtListener.REQUEST_SILENCE_NS);
        assertThat(n.listener.pendingHandshakes()).isZero();
    }

    @Test
    void aRequestWhoseCallerGaveUpIsForgottenAndALateAnswerIgnored() {
        SimulatedNetwork n = undecided(null);
        n.connect();
        n.runUntil(n.nowNs + 300_000_000L);
        long requestId = requested(n).requestId();
        n.lossToListener = 1.0; // the caller's repeats no longer arrive, as if it had given up
        n.runUntil(n.nowNs + SrtListener.REQUEST_SILENCE_NS + 100_000_000L);
        assertThat(n.listener.pendingHandshakes()).isZero();
        assertThat(n.listener.abandonedRequests()).isEqualTo(1);
        assertThat(n.listener.acceptPublish(requestId, null, n.nowNs)).isFalse();
        assertThat(n.listener.sessionCount()).isZero();
    }

    @Test
    void anUnansweredCallerTimesOut() {
        SimulatedNetwork n = pair(120, 120, null, SrtCaller.Options.of("publish:live/x", null, 16));
        n.lossToListener = 1.0;
        n.connect();
        n.runUntil(n.nowNs + 4_000_000_000L);
        assertThat(n.callerEvents)
                .singleElement()
                .isInstanceOfSatisfying(
                        SrtEvent.Rejected.class, r -> assertThat(r.code()).isEqualTo(RejectReason.TIMEOUT));
    }

    @Test
    void shutdownAndIdleTimeoutCloseTheSession() {
        SimulatedNetwork n = pair(120, 120, null, SrtCaller.Options.of("publish:live/x", null, 16));
        n.connect();
        n.runUntil(n.nowNs + 500_000_000L);
        n.stream(20, 1_000_000L, 188);
        n.caller.close(n.caller.sessionId(), n.nowNs);
        n.drain();
        n.runUntil(n.nowNs + 100_000_000L);
        assertThat(n.delivered)
                .as("buffered packets are handed over at shutdown")
                .hasSize(20);
        assertThat(n.listenerEvents)
                .last()
                .isInstanceOfSatisfying(
                        SrtEvent.Closed.class,
                        c -> assertThat(c.reason()).isEqualTo(SrtEvent.CloseReason.PEER_SHUTDOWN));
        assertThat(n.listener.sessionCount()).isZero();

        SimulatedNetwork m = pair(120, 120, null, SrtCaller.Options.of("publish:live/y", null, 16));
        m.connect();
        m.runUntil(m.nowNs + 500_000_000L);
        m.lossToListener = 1.0;
        m.runUntil(m.nowNs + 6_000_000_000L);
        assertThat(m.listenerEvents)
                .last()
                .isInstanceOfSatisfying(
                        SrtEvent.Closed.class,
                        c -> assertThat(c.reason()).isEqualTo(SrtEvent.CloseReason.IDLE_TIMEOUT));
        assertThat(m.listener.sessionCount()).isZero();
    }

    @Test
    void keyRefreshDuringTheStreamLosesNothing() {
        SrtCaller.Options o = new SrtCaller.Options("publish:live/x", PASS, 16, 200, 20);
        SimulatedNetwork n = pair(200, 120, PASS, o);
        n.lossToListener = 0.05;
        n.lossToCaller = 0.05;
        n.connect();
        n.runUntil(n.nowNs + 1_000_000_000L);
        n.stream(1000, 1_000_000L, 1316);
        n.runUntil(n.nowNs + 1_000_000_000L);
        assertThat(n.delivered).hasSize(1000);
        assertThat(n.listener.stats(connected(n).sessionId()).packetsUndecryptable())
                .isZero();
    }
}
