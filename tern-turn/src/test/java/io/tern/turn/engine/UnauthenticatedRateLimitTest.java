package io.tern.turn.engine;

import static io.tern.turn.testing.TurnTestClient.udpTransport;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import org.junit.jupiter.api.Test;

/** 401 answers are rate-limited per source IP, so the relay can't reflect a flood at a spoofed victim. */
class UnauthenticatedRateLimitTest {
    private final TurnFixture fx =
            TurnFixture.builder().config(c -> c.unauthenticatedRate(1, 5)).build();

    private int answersTo(String ip, int requests) {
        int answers = 0;
        for (int i = 0; i < requests; i++) {
            TurnTestClient client = fx.client(ip, 30000 + i);
            answers += client.deliver(client.unsignedRequest(StunMethod.ALLOCATE, udpTransport()))
                    .size();
        }
        return answers;
    }

    @Test
    void aFloodFromOneIpGetsAtMostTheBurst() {
        assertThat(answersTo("198.51.100.66", 50)).isEqualTo(5);
        assertThat(fx.counters().drops(DropReason.RATE_LIMITED)).isEqualTo(45);
    }

    @Test
    void anotherIpStillGetsAnswers() {
        answersTo("198.51.100.66", 50);

        assertThat(answersTo("198.51.100.67", 3)).isEqualTo(3);
    }

    @Test
    void theLimitRefillsWithTime() {
        answersTo("198.51.100.66", 50);
        assertThat(answersTo("198.51.100.66", 1)).isZero();

        fx.advanceSeconds(3);

        assertThat(answersTo("198.51.100.66", 10)).isEqualTo(3);
        fx.advanceSeconds(60);
        assertThat(answersTo("198.51.100.66", 10))
                .as("refill stops at the burst")
                .isEqualTo(5);
    }

    @Test
    void tcpClientsAreNotLimited() {
        int answers = 0;
        for (int i = 0; i < 20; i++) {
            TurnTestClient client = fx.tcpClient("198.51.100.66", 30000 + i, 100 + i);
            answers += client.deliver(client.unsignedRequest(StunMethod.ALLOCATE, udpTransport()))
                    .size();
        }
        assertThat(answers).isEqualTo(20);
    }
}
