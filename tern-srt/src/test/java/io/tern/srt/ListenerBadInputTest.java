package io.tern.srt;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.srt.handshake.Handshake;
import java.net.InetSocketAddress;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Floods, forgeries and garbage: an answer or a silent drop, no state, and live sessions go on. */
class ListenerBadInputTest {
    private final Transmit t = new Transmit();

    private static byte[] induction(int socketId) {
        Handshake h = new Handshake();
        h.version = 4;
        h.extension = Handshake.UDT_DGRAM;
        h.type = Handshake.TYPE_INDUCTION;
        h.socketId = socketId;
        h.mtu = 1500;
        byte[] b = new byte[1500];
        return java.util.Arrays.copyOf(b, h.encodePacket(b, 0, 0));
    }

    @Test
    void anInductionStormCreatesNoState() {
        SrtListener l = new SrtListener(SrtSettings.defaults(), new Random(1));
        byte[] ind = induction(77);
        int answers = 0;
        for (int port = 1024; port < 21024; port++) {
            l.onDatagram(ind, 0, ind.length, new InetSocketAddress("127.0.0.1", port), 1_000_000_000L + port);
            while (l.pollTransmit(t)) {
                answers++;
            }
        }
        assertThat(answers).isEqualTo(20000);
        assertThat(l.sessionCount()).isZero();
        assertThat(l.pendingHandshakes()).isZero();
        assertThat(l.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aConclusionWithAForgedCookieGetsNoAnswer() {
        SrtListener l = new SrtListener(SrtSettings.defaults(), new Random(1));
        Handshake h = new Handshake();
        h.version = 5;
        h.type = Handshake.TYPE_CONCLUSION;
        h.cookie = 0x1234_5678;
        h.srtCommand = Handshake.CMD_HSREQ;
        h.srtVersion = SrtSettings.SRT_VERSION;
        h.streamId = "publish:live/x";
        byte[] b = new byte[1500];
        int n = h.encodePacket(b, 0, 0);
        l.onDatagram(b, 0, n, new InetSocketAddress("127.0.0.1", 5555), 1_000_000_000L);
        assertThat(l.pollTransmit(t)).isFalse();
        assertThat(l.badCookies()).isEqualTo(1);
        assertThat(l.sessionCount()).isZero();
    }

    @Test
    void garbageTruncatedAndOversizedDatagramsLeaveALiveSessionDelivering() {
        SimulatedNetwork n = SrtEngineTest.pair(120, 120, null, SrtCaller.Options.of("publish:live/x", null, 16));
        n.connect();
        n.runUntil(n.nowNs + 500_000_000L);
        long session = SrtEngineTest.connected(n).sessionId();
        Random r = new Random(9);
        InetSocketAddress attacker = new InetSocketAddress("127.0.0.1", 6666);
        for (int round = 0; round < 200; round++) {
            n.stream(1, 1_000_000L, 1316);
            for (int k = 0; k < 25; k++) {
                byte[] g = new byte[r.nextInt(1600)];
                r.nextBytes(g);
                if (g.length >= 16 && r.nextBoolean()) {
                    // Aim at the live session's socket id, from another address.
                    g[12] = (byte) (session >>> 24);
                    g[13] = (byte) (session >>> 16);
                    g[14] = (byte) (session >>> 8);
                    g[15] = (byte) session;
                }
                if (g.length >= 16 && r.nextInt(4) == 0) {
                    // A handshake header with a random (truncated or forged) body.
                    g[0] = (byte) 0x80;
                    g[1] = 0;
                    g[12] = g[13] = g[14] = g[15] = 0;
                }
                n.listener.onDatagram(g, 0, g.length, attacker, n.nowNs);
            }
            n.drain();
        }
        n.runUntil(n.nowNs + 500_000_000L);
        assertThat(n.delivered).hasSize(200);
        assertThat(n.listener.sessionCount()).isEqualTo(1);
        assertThat(n.listener.droppedOversized() + n.listener.droppedMalformed() + n.listener.droppedUnknownSocket())
                .isGreaterThan(1000);
    }
}
