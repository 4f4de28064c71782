package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.crypto.SchnorrVerifier;
import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Checking a message off the engine's thread: the {@link MessageChecker} decodes and verifies, the
 * engine ({@link NostrEngine#onMessage(long, CheckedMessage, long)}) only routes, and the client
 * gets the same answers as when the engine checks the message itself.
 */
class MessageCheckerTest {
    private final Keys alice = Keys.fromSeed(1);

    /** A verifier that counts its calls, so a test can see which side verified. */
    private static final class CountingVerifier implements SchnorrVerifier {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public boolean verify(byte[] signature, byte[] message, byte[] publicKey) {
            calls.incrementAndGet();
            return Keys.secp().verify(signature, message, publicKey);
        }

        @Override
        public String name() {
            return "counting";
        }
    }

    private static CheckedMessage check(MessageChecker checker, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return checker.check(b, 0, b.length);
    }

    private static String forged(Event e) {
        String sig = e.sig();
        String other = (sig.charAt(0) == '0' ? "1" : "0") + sig.substring(1);
        return Keys.eventMessage(e).replace(sig, other);
    }

    @Test
    void theCheckerVerifiesAndTheEngineOnlyRoutes() {
        NostrHarness relay = NostrHarness.withDefaults();
        CountingVerifier verifier = new CountingVerifier();
        MessageChecker checker = new MessageChecker(NostrConfig.defaults(), verifier);
        long c = relay.client("10.0.0.1");
        Event e = alice.sign(relay.clock.epochSeconds(), 1, List.of(), "checked elsewhere");

        relay.engine.onMessage(c, check(checker, Keys.eventMessage(e)), relay.clock.nowNs());
        relay.drain();
        relay.settle();
        assertThat(relay.takeOne(c)).containsExactly("OK", e.id(), true, "");
        assertThat(verifier.calls).hasValue(1);
        assertThat(relay.events.size()).isEqualTo(1);
    }

    @Test
    void aForgedSignatureFoundByTheCheckerIsRefusedByTheEngine() {
        NostrHarness relay = NostrHarness.withDefaults();
        MessageChecker checker = new MessageChecker(NostrConfig.defaults(), Keys.secp());
        long c = relay.client("10.0.0.1");
        Event e = alice.sign(relay.clock.epochSeconds(), 1, List.of(), "forged");

        CheckedMessage m = check(checker, forged(e));
        assertThat(m.eventProblem()).isEqualTo("invalid: signature does not verify");
        relay.engine.onMessage(c, m, relay.clock.nowNs());
        relay.drain();
        assertThat(relay.takeOne(c)).containsExactly("OK", e.id(), false, "invalid: signature does not verify");
        assertThat(relay.events.size()).isZero();
    }

    @Test
    void theEnginesOwnChecksStillComeFirst() {
        NostrHarness relay =
                new NostrHarness(NostrConfig.builder().authMode(AuthMode.WRITE).build());
        MessageChecker checker = new MessageChecker(relay.engine.config(), Keys.secp());
        long c = relay.client("10.0.0.1");
        Event e = alice.sign(relay.clock.epochSeconds(), 1, List.of(), "forged, unauthenticated");

        relay.engine.onMessage(c, check(checker, forged(e)), relay.clock.nowNs());
        relay.drain();
        assertThat((String) relay.takeOne(c).get(3)).startsWith("auth-required:");
    }

    @Test
    void aMessageTooLargeIsAnsweredWithoutDecoding() {
        NostrHarness relay =
                new NostrHarness(NostrConfig.builder().maxMessageBytes(256).build());
        MessageChecker checker = new MessageChecker(relay.engine.config(), Keys.secp());
        long c = relay.client("10.0.0.1");
        relay.engine.onMessage(c, check(checker, "[\"REQ\",\"s\",{\"kinds\":[1]}]" + " ".repeat(256)), 0);
        relay.drain();
        assertThat(relay.takeOne(c)).containsExactly("NOTICE", "invalid: message too large (at most 256 bytes)");
    }

    @Test
    void aCheckerThatFailedIsAnsweredAndCounted() {
        NostrHarness relay = NostrHarness.withDefaults();
        long c = relay.client("10.0.0.1");
        relay.engine.onMessage(c, new CheckedMessage(null, null, true), relay.clock.nowNs());
        relay.drain();
        assertThat(relay.takeOne(c)).containsExactly("NOTICE", "error: internal error");
        assertThat(relay.engine.counters().internalErrors()).isEqualTo(1);
    }
}
