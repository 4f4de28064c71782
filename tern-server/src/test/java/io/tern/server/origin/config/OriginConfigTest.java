package io.tern.server.origin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.hls.packager.RenditionMode;
import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The origin's configuration: the issue's defaults, the file with its stream sections, the command
 * line over the file, and every invalid value stopping start-up with the option, the value and
 * where it was written.
 */
class OriginConfigTest {
    @TempDir
    Path dir;

    @Test
    void theDefaultsAreTheIssuesContract() throws Exception {
        OriginConfig c = OriginConfig.defaults();
        assertThat(c.get(OriginOptions.LISTEN)).isEqualTo(InetAddress.getByName("0.0.0.0"));
        assertThat(c.get(OriginOptions.RTMP_PORT)).isEqualTo(1935);
        assertThat(c.get(OriginOptions.HTTP_PORT)).isEqualTo(8080);
        assertThat(c.get(OriginOptions.RECORD_DIR))
                .as("recording off without --record-dir")
                .isNull();
        assertThat(c.tls()).isFalse();
        StreamConfig s = c.stream("any");
        assertThat(s.partTargetMs()).isEqualTo(200);
        assertThat(s.segmentTargetMs()).isEqualTo(2000);
        assertThat(s.noPublishAuth()).as("publishing needs a token").isFalse();
        assertThat(s.delivery()).isEqualTo(DeliveryMode.STREAM);
        assertThat(s.packagerConfig("x", 100).partTargetMs()).isEqualTo(200);
    }

    @Test
    void theFileSetsServerAndStreamOptionsAndTheCommandLineOverridesTheServerOnes() throws Exception {
        Path file = write(
                "# the origin",
                "http-port = 9000",
                "rtmp-port 9001",
                "record-dir=" + dir.resolve("rec"),
                "no-publish-auth",
                "",
                "[stream cam1]",
                "record = off",
                "part-target-ms = 333",
                "segment-target-ms = 4000",
                "publish-secret = cam1-only",
                "[stream lobby]",
                "part-delivery = whole",
                "renditions = separate");
        OriginConfig c =
                OriginConfig.assemble(OriginConfigFile.read(file), List.of(cli(OriginOptions.HTTP_PORT, "9100")));
        assertThat(c.get(OriginOptions.HTTP_PORT))
                .as("command line over the file")
                .isEqualTo(9100);
        assertThat(c.get(OriginOptions.RTMP_PORT)).isEqualTo(9001);
        assertThat(c.configuredStreams()).containsExactly("cam1", "lobby");
        StreamConfig cam1 = c.stream("cam1");
        assertThat(cam1.record()).isFalse();
        assertThat(cam1.partTargetMs()).isEqualTo(333);
        assertThat(cam1.segmentTargetMs()).isEqualTo(4000);
        assertThat(cam1.playlistWindowMs())
                .as("at least three target durations")
                .isEqualTo(24_000);
        assertThat(cam1.noPublishAuth())
                .as("a stream's own secret turns tokens on for it")
                .isFalse();
        assertThat(cam1.publishSecret()).isEqualTo("cam1-only");
        StreamConfig lobby = c.stream("lobby");
        assertThat(lobby.delivery()).isEqualTo(DeliveryMode.WHOLE);
        assertThat(lobby.packagerConfig("x", 100).renditions()).isEqualTo(RenditionMode.SEPARATE);
        assertThat(cam1.renditions()).as("the server-wide default").isEqualTo(RenditionMode.MUXED);
        assertThat(lobby.record()).isTrue();
        assertThat(lobby.noPublishAuth()).isTrue();
        assertThat(c.stream("other").partTargetMs()).isEqualTo(200);
        assertThat(c.source(OriginOptions.RTMP_PORT).toString()).isEqualTo(file + ":3");
    }

    @Test
    void aLongSegmentTargetWidensTheDefaultWindowToThreeTargetDurations() {
        OriginConfig c = OriginConfig.assemble(List.of(), List.of(cli(OriginOptions.SEGMENT_TARGET_MS, "10000")));
        assertThat(c.streamDefaults().playlistWindowMs()).isEqualTo(30_000);
    }

    @Test
    void invalidValuesNameTheOptionTheValueAndWhereItWasWritten() throws Exception {
        assertInvalid(List.of(cli(OriginOptions.RTMP_PORT, "70000")), "'rtmp-port': '70000'", "on the command line");
        assertInvalid(List.of(cli(OriginOptions.LISTEN, "example.com")), "'listen': 'example.com'", "IP address");
        assertInvalid(List.of(cli(OriginOptions.PART_TARGET_MS, "10")), "'part-target-ms': '10'", "from 50 to 5000");
        assertInvalid(
                List.of(cli(OriginOptions.PART_DELIVERY, "fast")), "'part-delivery': 'fast'", "one of stream, whole");
        assertInvalid(List.of(cli(OriginOptions.RENDITIONS, "both")), "'renditions': 'both'", "one of separate, muxed");
        assertInvalid(List.of(cli(OriginOptions.RECORD_MAX_BYTES, "lots")), "'record-max-bytes': 'lots'", "size");
        assertInvalid(List.of(cli(OriginOptions.RECORD_ROTATE, "10x")), "'record-rotate': '10x'", "duration");
        assertInvalid(List.of(cli(OriginOptions.ON_PUBLISH, "ftp://hook")), "'on-publish'", "http://");
        assertInvalid(List.of(cli(OriginOptions.RECORD, "maybe")), "'record': 'maybe'", "on or off");
        assertInvalid(
                List.of(cli(OriginOptions.SEGMENT_TARGET_MS, "700"), cli(OriginOptions.PART_TARGET_MS, "400")),
                "'segment-target-ms': '700'",
                "at least twice part-target-ms (400)");
        assertInvalid(List.of(cli(OriginOptions.TLS_CERT, "/etc/cert.pem")), "'tls-cert'", "needs 'tls-key'");
        assertInvalid(List.of(cli(OriginOptions.HTTP_PORT, "1935")), "'http-port': '1935'", "same port as 'rtmp-port'");
        assertInvalid(
                List.of(cli(OriginOptions.NO_PUBLISH_AUTH, ""), cli(OriginOptions.PUBLISH_SECRET, "k")),
                "'no-publish-auth'",
                "excludes 'publish-secret'");
        assertInvalid(
                List.of(cli(
                        OriginOptions.PUBLISH_SECRET_FILE,
                        dir.resolve("missing").toString())),
                "'publish-secret-file'",
                "cannot read it");
        Path file = write("[stream cam1]", "segment-target-ms = 700", "part-target-ms = 400");
        assertThatThrownBy(() -> OriginConfig.assemble(OriginConfigFile.read(file), List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'segment-target-ms': '700'")
                .hasMessageContaining("at least twice part-target-ms (400), for stream cam1")
                .hasMessageContaining(file + ":2");
    }

    @Test
    void theFileRefusesUnknownOptionsServerOptionsInSectionsAndBadSections() throws Exception {
        assertFileRefused(List.of("http-prot = 1"), "Unknown option 'http-prot'", ":1");
        assertFileRefused(List.of("[stream cam1]", "http-port = 1"), "cannot be set per stream", ":2");
        assertFileRefused(List.of("[stream ../x]"), "Invalid stream name '../x'", ":1");
        assertFileRefused(List.of("[cam1]"), "Invalid section header", ":1");
        assertThatThrownBy(() -> OriginConfigFile.read(dir.resolve("nope.conf")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Cannot read the configuration file");
    }

    @Test
    void printConfigReadsBackToTheSameConfiguration() throws Exception {
        Path file = write(
                "http-port = 9000",
                "record-dir = /var/lib/tern",
                "record-max-bytes = 500G",
                "record-max-age = 7d",
                "publish-secret = hidden",
                "[stream cam1]",
                "record = off",
                "part-target-ms = 333");
        OriginConfig config = OriginConfig.assemble(OriginConfigFile.read(file), List.of());
        String printed = config.print();
        assertThat(printed)
                .contains("http-port = 9000")
                .contains("record-max-bytes = 500G")
                .contains("record-max-age = 7d")
                .contains("# publish-secret is set (not shown)")
                .doesNotContain("hidden")
                .contains("[stream cam1]\nrecord = off\npart-target-ms = 333\n");
        OriginConfig again =
                OriginConfig.assemble(OriginConfigFile.parse("printed", Arrays.asList(printed.split("\n"))), List.of());
        assertThat(again.print())
                .isEqualTo(printed.replace("# publish-secret is set (not shown)", "# publish-secret: none"));
        assertThat(again.stream("cam1").record()).isFalse();
        assertThat(again.stream("cam1").partTargetMs()).isEqualTo(333);
    }

    @Test
    void theSwarmIsOnPerStreamNeedsTheNostrRelayAndOneWayToATurnRelay() throws Exception {
        Path file = write("nostr-db = relay.db", "[stream cam1]", "swarm = on");
        OriginConfig c = OriginConfig.assemble(OriginConfigFile.read(file), List.of());
        assertThat(c.anySwarm()).isTrue();
        assertThat(c.stream("cam1").swarm()).isTrue();
        assertThat(c.stream("cam2").swarm()).isFalse();
        assertThat(OriginConfig.defaults().anySwarm()).isFalse();
        assertThat(c.get(OriginOptions.SWARM_KEY_FILE)).isEqualTo(Path.of("tern-swarm.key"));

        assertInvalid(List.of(cli(OriginOptions.SWARM, "true")), "'swarm' needs 'nostr-db'");
        assertInvalid(
                List.of(cli(OriginOptions.TURN_URL, "turn:relay.example.com:3478")),
                "'turn-url'",
                "needs 'turn-secret-file'");
        assertInvalid(
                List.of(
                        cli(OriginOptions.TURN_CONFIG, "turn.conf"),
                        cli(OriginOptions.TURN_URL, "turn:relay.example.com"),
                        cli(OriginOptions.TURN_SECRET_FILE, "secret")),
                "'turn-config'",
                "exclude each other");
        assertInvalid(List.of(cli(OriginOptions.TURN_URL, "http://relay")), "'turn-url': 'http://relay'", "turn:HOST");
        assertInvalid(List.of(cli(OriginOptions.SWARM_RATE_PER_MINUTE, "0")), "'swarm-rate-per-minute': '0'");
    }

    private void assertInvalid(List<Occurrence> cli, String... fragments) {
        assertThatThrownBy(() -> OriginConfig.assemble(List.of(), cli))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> {
                    for (String f : fragments) {
                        assertThat(e.getMessage()).contains(f);
                    }
                });
    }

    private void assertFileRefused(List<String> lines, String... fragments) {
        assertThatThrownBy(() -> OriginConfigFile.parse("origin.conf", lines))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> {
                    for (String f : fragments) {
                        assertThat(e.getMessage()).contains(f);
                    }
                });
    }

    private static Occurrence cli(Option<?> option, String value) {
        return new Occurrence(option, value, ConfigSource.commandLine(), null);
    }

    private Path write(String... lines) throws Exception {
        Path file = dir.resolve("origin-" + System.nanoTime() + ".conf");
        Files.write(file, new ArrayList<>(List.of(lines)));
        return file;
    }
}
