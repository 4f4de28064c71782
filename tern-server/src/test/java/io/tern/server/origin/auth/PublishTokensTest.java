package io.tern.server.origin.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.testkit.ExternalPeers;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class PublishTokensTest {
    private static final long NOW = 1_767_225_600L;
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochSecond(NOW));
    private final PublishTokens tokens = new PublishTokens("s3cret", CLOCK);

    private static PublishRequest request(String app, String name, String query) {
        return new PublishRequest("rtmp", app, name, new InetSocketAddress("127.0.0.1", 50000), query);
    }

    @Example
    void aMintedTokenAllowsItsStreamUntilItsExpirySecond() {
        String token = tokens.mint("live", "cam1", NOW + 60);
        assertThat(token).matches("1767225660-[0-9a-f]{64}");
        assertThat(tokens.verify(request("live", "cam1", "token=" + token)).allowed())
                .isTrue();
        assertThat(tokens.verify(request("live", "cam1", "x=1&token=" + token + "&y"))
                        .allowed())
                .isTrue();
        PublishTokens atExpiry = new PublishTokens("s3cret", InstantSource.fixed(Instant.ofEpochSecond(NOW + 60)));
        assertThat(atExpiry.verify("live", "cam1", token).allowed()).isTrue();
        PublishTokens after = new PublishTokens("s3cret", InstantSource.fixed(Instant.ofEpochSecond(NOW + 61)));
        assertThat(after.verify("live", "cam1", token)).isEqualTo(PublishDecision.refuse("publish token expired"));
    }

    @Example
    void aTokenIsBoundToItsStreamItsExpiryAndTheSecret() {
        String token = tokens.mint("live", "cam1", NOW + 60);
        assertThat(tokens.verify("live", "cam2", token).reason()).isEqualTo("publish token invalid for live/cam2");
        assertThat(tokens.verify("other", "cam1", token).allowed()).isFalse();
        assertThat(new PublishTokens("other", CLOCK)
                        .verify("live", "cam1", token)
                        .allowed())
                .isFalse();
        String laterExpiry = (NOW + 6000) + token.substring(token.indexOf('-'));
        assertThat(tokens.verify("live", "cam1", laterExpiry).allowed()).isFalse();
        char last = token.charAt(token.length() - 1);
        String flipped = token.substring(0, token.length() - 1) + (last == '0' ? '1' : '0');
        assertThat(tokens.verify("live", "cam1", flipped).allowed()).isFalse();
    }

    @Example
    void missingAndMalformedTokensAreRefusedWithAReason() {
        assertThat(tokens.verify(request("live", "cam1", "")).reason()).startsWith("publish token missing");
        for (String bad : new String[] {"x", "-abc", "12-zz", "1767225660-" + "g".repeat(64), "１２-" + "a".repeat(64)}) {
            assertThat(tokens.verify("live", "cam1", bad).reason()).as(bad).isEqualTo("publish token malformed");
        }
    }

    @Property(tries = 500)
    void noStringButAMintedTokenIsAccepted(@ForAll String token) {
        PublishDecision decision = tokens.verify("live", "cam1", token);
        if (decision.allowed()) {
            assertThat(token)
                    .isEqualTo(tokens.mint("live", "cam1", Long.parseLong(token.substring(0, token.indexOf('-')))));
        }
    }

    @Property(tries = 20)
    void theDocumentedOpensslLineMintsTheSameToken(@ForAll("names") String name, @ForAll("secrets") String secret)
            throws Exception {
        ExternalPeers.require("openssl", "openssl");
        long expiry = NOW + 3600;
        ProcessBuilder shell =
                new ProcessBuilder("bash", "-c", PublishTokens.OPENSSL_COMMAND).redirectErrorStream(true);
        shell.environment().put("APP", "live");
        shell.environment().put("NAME", name);
        shell.environment().put("EXP", Long.toString(expiry));
        shell.environment().put("SECRET", secret);
        Process process = shell.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(out).isEqualTo(new PublishTokens(secret, CLOCK).mint("live", name, expiry));
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings().withChars("abcXYZ019_-.é").ofMinLength(1).ofMaxLength(20);
    }

    @Provide
    Arbitrary<String> secrets() {
        return Arbitraries.strings()
                .withChars("abcdef0123456789 +/=!ü")
                .ofMinLength(1)
                .ofMaxLength(64)
                .filter(s -> !s.isBlank());
    }
}
