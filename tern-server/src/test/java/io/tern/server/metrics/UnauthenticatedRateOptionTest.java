package io.tern.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMethod;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * {@code unauthenticated-rate}: the 401 answers one source IP gets per second, after a burst of
 * twice as many; past them a request gets no answer. Tern in-process, real UDP from 127.0.0.1.
 */
class UnauthenticatedRateOptionTest {
    private static int challengesAnswered(RelayFixture relay, int requests) throws Exception {
        String username = RelayFixture.restUsername("alice");
        try (TurnClient client = new TurnClient(relay.udpAddress(), username, RelayFixture.restPassword(username))
                .answerTimeoutMs(500)) {
            int answered = 0;
            for (int i = 0; i < requests; i++) {
                try {
                    TurnClient.Response r = client.unauthenticated(
                            StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
                    assertThat(r.errorCode()).isEqualTo(401);
                    answered++;
                } catch (SocketTimeoutException unanswered) {
                    return answered;
                }
            }
            return answered;
        }
    }

    @Test
    void aLowRateLeavesTheRequestsPastItsBurstUnanswered() throws Exception {
        try (RelayFixture relay = RelayFixture.start("unauthenticated-rate", "2")) {
            // A burst of 4 (twice the rate); the fifth arrives well within the 0.5 s a token takes.
            assertThat(challengesAnswered(relay, 8)).isEqualTo(4);
        }
    }

    @Test
    void theDefaultAnswersMoreThanTheLowRatesBurst() throws Exception {
        try (RelayFixture relay = RelayFixture.start()) {
            assertThat(challengesAnswered(relay, 8)).isEqualTo(8);
        }
    }

    @Test
    void aRateBelowOneIsRefusedAtStart() {
        assertThatThrownBy(() -> RelayFixture.start("unauthenticated-rate", "0"))
                .hasMessageContaining("unauthenticated-rate")
                .hasMessageContaining("0");
    }
}
