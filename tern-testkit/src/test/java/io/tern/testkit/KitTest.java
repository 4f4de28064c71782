package io.tern.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class KitTest {
    @Test
    void theFakeClockMovesOnlyWhenTold() {
        FakeClock clock = new FakeClock();
        assertThat(clock.nowNs()).isEqualTo(FakeClock.START_NS);
        clock.advanceMillis(1500);
        clock.advanceSeconds(1);
        assertThat(clock.nowNs() - FakeClock.START_NS).isEqualTo(2_500_000_000L);
        assertThat(clock.epochSeconds()).isEqualTo(FakeClock.START_EPOCH_SECONDS + 2);
        assertThat(clock.epochMillis()).isEqualTo(FakeClock.START_EPOCH_SECONDS * 1000 + 2500);
        assertThat(clock.instant()).isEqualTo(Instant.ofEpochSecond(FakeClock.START_EPOCH_SECONDS + 2, 500_000_000));
    }

    @Test
    void awaitReturnsOnceTheConditionHoldsAndFailsNamingWhatDidNot() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        assertThat(Await.awaitValue(
                        "three polls",
                        Duration.ofSeconds(5),
                        Duration.ofMillis(1),
                        () -> polls.incrementAndGet() >= 3 ? polls.get() : null))
                .isEqualTo(3);
        assertThatThrownBy(() -> Await.await(
                        "the impossible", Duration.ofMillis(30), Duration.ofMillis(5), () -> false, () -> "nothing"))
                .isInstanceOf(AssertionError.class)
                .hasMessage("the impossible did not happen within 30 ms; last seen: nothing");
    }

    @Test
    void aMissingPeerSkipsOutsideCiAndNamesItsPackage() {
        if (ExternalPeers.ci()) {
            assertThatThrownBy(() -> ExternalPeers.require("tern-no-such-tool", "tern-no-such-package"))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("apt-get install tern-no-such-package")
                    .hasMessageContaining("CI=true");
        } else {
            assertThatThrownBy(() -> ExternalPeers.require("tern-no-such-tool", "tern-no-such-package"))
                    .isInstanceOf(TestAbortedException.class)
                    .hasMessageContaining("tern-no-such-tool is missing: apt-get install tern-no-such-package");
        }
        assertThat(ExternalPeers.find("sh")).isPresent();
        assertThat(ExternalPeers.runs("sh", "-c", "exit 0")).isTrue();
        assertThat(ExternalPeers.runs("sh", "-c", "exit 3")).isFalse();
        assertThat(ExternalPeers.runs("tern-no-such-tool")).isFalse();
    }

    @Test
    void theLiveSourceIsTheOneCommandLine() {
        assertThat(String.join(
                        " ", FfmpegSource.live("ffmpeg").stereo().seconds(5).command("srt://x")))
                .isEqualTo("ffmpeg -hide_banner -nostdin -loglevel warning"
                        + " -re -f lavfi -i testsrc2=size=1280x720:rate=30"
                        + " -re -f lavfi -i sine=frequency=1000:sample_rate=48000"
                        + " -c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p"
                        + " -g 30 -keyint_min 30 -sc_threshold 0 -b:v 2500k"
                        + " -c:a aac -b:a 128k -ar 48000 -ac 2 -t 5 -f flv srt://x");
        assertThat(String.join(
                        " ",
                        FfmpegSource.file("ffmpeg").audioOnly().format("adts").command("a.aac")))
                .isEqualTo("ffmpeg -hide_banner -nostdin -loglevel error -y"
                        + " -f lavfi -i sine=frequency=440:sample_rate=48000 -c:a aac -b:a 128k -f adts a.aac");
        // The browser tests' light stream: small noise at a constant rate.
        assertThat(String.join(
                        " ",
                        FfmpegSource.live("ffmpeg")
                                .noise(320, 180)
                                .videoBitrate("1500k")
                                .capRate()
                                .videoOnly()
                                .command("rtmp://x")))
                .isEqualTo(
                        "ffmpeg -hide_banner -nostdin -loglevel warning"
                                + " -re -f lavfi -i testsrc2=size=320x180:rate=30,noise=alls=100:allf=t"
                                + " -c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p"
                                + " -g 30 -keyint_min 30 -sc_threshold 0 -b:v 1500k -maxrate 1500k -bufsize 1500k -f flv rtmp://x");
    }

    @Test
    void selfSignedPemFilesForLocalhost(@TempDir Path dir) throws Exception {
        TestTls.Pem pem = TestTls.selfSigned(dir, "CN=localhost");
        assertThat(Files.readString(pem.cert())).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(Files.readString(pem.key())).contains("PRIVATE KEY-----");
        assertThat(TestTls.trustAll().getProtocol()).isEqualTo("TLS");
    }
}
