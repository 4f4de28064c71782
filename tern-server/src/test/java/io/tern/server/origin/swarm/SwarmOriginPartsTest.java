package io.tern.server.origin.swarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.testkit.FakeClock;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The origin's swarm parts on their own: the key file (made once, 0600, read back as the same key,
 * a bad file named), the per-address rate limit on a fake clock (a burst, then Retry-After, refilled
 * by time, the table bounded) and the TURN REST credentials (coturn's HMAC, expiry within the hour,
 * every transport's URL).
 */
class SwarmOriginPartsTest {
    @TempDir
    Path dir;

    @Test
    void theKeyFileIsMadeOnceReadableByItsOwnerOnlyAndReadBackAsTheSameKey() throws Exception {
        Path file = dir.resolve("tern-swarm.key");
        SwarmKeyFile.Loaded made = SwarmKeyFile.loadOrCreate(file, new SecureRandom());
        assertThat(made.created()).isTrue();
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(file)).startsWith("-----BEGIN PRIVATE KEY-----\n");
        try (var leftovers = Files.list(dir)) {
            assertThat(leftovers).as("no temporary file is left").containsExactly(file);
        }

        SwarmKeyFile.Loaded again = SwarmKeyFile.loadOrCreate(file, new SecureRandom());
        assertThat(again.created()).isFalse();
        assertThat(again.key().publicB64url()).isEqualTo(made.key().publicB64url());

        // DER works as well as PEM.
        String pem = Files.readString(file);
        byte[] der = Base64.getMimeDecoder()
                .decode(pem.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", ""));
        Path derFile = dir.resolve("key.der");
        Files.write(derFile, der);
        assertThat(SwarmKeyFile.loadOrCreate(derFile, new SecureRandom()).key().publicB64url())
                .isEqualTo(made.key().publicB64url());
    }

    @Test
    void aFileThatIsNoEd25519KeyIsRefusedByName() throws Exception {
        Path garbage = dir.resolve("garbage.key");
        Files.writeString(garbage, "not a key\n");
        assertThatThrownBy(() -> SwarmKeyFile.loadOrCreate(garbage, new SecureRandom()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(garbage.toString())
                .hasMessageContaining("not an Ed25519 private key");
        Path cut = dir.resolve("cut.key");
        Files.writeString(cut, "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI\n");
        assertThatThrownBy(() -> SwarmKeyFile.loadOrCreate(cut, new SecureRandom()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without '-----END PRIVATE KEY-----'");
        assertThatThrownBy(() -> SwarmKeyFile.loadOrCreate(dir.resolve("no/such/dir/k.key"), new SecureRandom()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot create the swarm key");
    }

    @Test
    void eachAddressGetsABurstThenRetryAfterUntilTimeRefillsIt() throws Exception {
        FakeClock clock = new FakeClock();
        IpRateLimiter limiter = new IpRateLimiter(6, clock::nowNs);
        InetAddress a = InetAddress.getByName("192.0.2.1");
        InetAddress b = InetAddress.getByName("192.0.2.2");
        for (int i = 0; i < 6; i++) {
            assertThat(limiter.retryAfterSeconds(a)).as("request %d", i).isZero();
        }
        assertThat(limiter.retryAfterSeconds(a)).as("a token every 10 s").isEqualTo(10);
        assertThat(limiter.retryAfterSeconds(b))
                .as("another address has its own bucket")
                .isZero();
        clock.advanceSeconds(4);
        assertThat(limiter.retryAfterSeconds(a)).isEqualTo(6);
        clock.advanceSeconds(6);
        assertThat(limiter.retryAfterSeconds(a)).isZero();
        assertThat(limiter.retryAfterSeconds(a)).isEqualTo(10);
        clock.advanceSeconds(3600);
        for (int i = 0; i < 6; i++) {
            assertThat(limiter.retryAfterSeconds(a))
                    .as("idle refills only to the burst")
                    .isZero();
        }
        assertThat(limiter.retryAfterSeconds(a)).isPositive();
    }

    @Test
    void aFloodOfAddressesIsBoundedAndForgottenOnceTheirBucketsRefill() throws Exception {
        FakeClock clock = new FakeClock();
        IpRateLimiter limiter = new IpRateLimiter(1, clock::nowNs);
        byte[] ip = {10, 0, 0, 0};
        for (int i = 0; i < IpRateLimiter.MAX_ADDRESSES; i++) {
            ip[1] = (byte) (i >> 16);
            ip[2] = (byte) (i >> 8);
            ip[3] = (byte) i;
            assertThat(limiter.retryAfterSeconds(InetAddress.getByAddress(ip))).isZero();
        }
        InetAddress late = InetAddress.getByName("198.51.100.7");
        assertThat(limiter.retryAfterSeconds(late))
                .as("full, all still counting")
                .isEqualTo(1);
        assertThat(limiter.size()).isEqualTo(IpRateLimiter.MAX_ADDRESSES);
        clock.advanceSeconds(61);
        assertThat(limiter.retryAfterSeconds(late))
                .as("refilled buckets are forgotten")
                .isZero();
        assertThat(limiter.size()).isEqualTo(1);
    }

    @Test
    void credentialsAreCoturnsRestSchemeAndExpireWithinTheHour() throws Exception {
        FakeClock clock = new FakeClock();
        TurnAccess access = new TurnAccess(
                host -> TurnAccess.urls(host, List.of(3478, 3478), List.of(3478), List.of(5349)),
                "s3cret",
                ':',
                clock,
                new SecureRandom());
        TurnAccess.IceServer ice = access.issue("example.com");
        assertThat(ice.urls())
                .containsExactly(
                        "turn:example.com:3478?transport=udp",
                        "turn:example.com:3478?transport=tcp",
                        "turns:example.com:5349?transport=tcp");
        String[] username = ice.username().split(":");
        assertThat(Long.parseLong(username[0])).isEqualTo(clock.epochSeconds() + TurnAccess.CREDENTIAL_TTL_S);
        assertThat(TurnAccess.CREDENTIAL_TTL_S).isLessThanOrEqualTo(3600);
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec("s3cret".getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        assertThat(ice.credential())
                .isEqualTo(Base64.getEncoder()
                        .encodeToString(mac.doFinal(ice.username().getBytes(StandardCharsets.UTF_8))));
        assertThat(access.issue("example.com").username())
                .as("a new id each time")
                .isNotEqualTo(ice.username());

        TurnAccess external = TurnAccess.external(
                List.of("turns:relay.example.net:443?transport=tcp"), "s3cret", clock, new SecureRandom());
        assertThat(external.issue("ignored").urls()).containsExactly("turns:relay.example.net:443?transport=tcp");
    }

    @Test
    void theRelayUrlsNameTheHostTheViewerReached() {
        assertThat(SwarmService.hostName("example.com:8080")).isEqualTo("example.com");
        assertThat(SwarmService.hostName("example.com")).isEqualTo("example.com");
        assertThat(SwarmService.hostName("[::1]:8080")).isEqualTo("[::1]");
        assertThat(SwarmService.hostName("127.0.0.1:80")).isEqualTo("127.0.0.1");
    }
}
