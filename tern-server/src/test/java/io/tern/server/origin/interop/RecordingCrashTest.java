package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.record.ByteSource;
import io.tern.hls.record.FragmentedMp4Tail;
import io.tern.hls.record.RecordingFile;
import io.tern.server.origin.OriginServer;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginConfigFile;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Harness;
import io.tern.server.origin.record.RecordingStore;
import io.tern.testkit.Await;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tern origin} in a process of its own, as a new user runs it (publish authentication on,
 * the printed URL used as it is), recording while ffmpeg publishes, killed with {@code kill -9}
 * mid-stream. On restart the recordings are repaired before anything is served: a torn last
 * fragment is cut, a file killed before its first fragment completed (the init segment alone) is
 * removed (a file of each kind is added on purpose, so both are always exercised), and every completed
 * fragment of every other file is still there, listed, and decodes without one error line.
 */
class RecordingCrashTest {
    @TempDir
    Path dir;

    @Test
    void afterKillNineEveryCompletedFragmentStaysPlayable() throws Exception {
        FfmpegPublisher.require();
        Peers.requireFfprobe();
        Path recordings = dir.resolve("recordings");
        int rtmpPort = Harness.freePort();
        int httpPort = Harness.freePort();
        Process origin = startOrigin(rtmpPort, httpPort, recordings);
        Map<String, String> printed = announcement(origin);
        assertThat(printed.get("publish")).startsWith("rtmp://127.0.0.1:" + rtmpPort + "/live/cam1?token=");
        assertThat(printed.get("play")).isEqualTo("http://127.0.0.1:" + httpPort + "/live/cam1/index.m3u8");
        RecordingStore store = new RecordingStore(recordings);
        try (FfmpegPublisher ffmpeg = FfmpegPublisher.rtmp(printed.get("publish"), 0)) {
            awaitPlayable(printed.get("play"));
            Await.await(
                    "three recorded files (rotated every 2 s)",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(200),
                    () -> store.list().size() >= 3,
                    () -> "ffmpeg: " + ffmpeg.log());
            assertThat(store.list())
                    .as("files rotated every 2 s; ffmpeg: %s", ffmpeg.log())
                    .hasSizeGreaterThanOrEqualTo(3);
            origin.destroyForcibly(); // SIGKILL: no shutdown hook, files left as they are
            assertThat(origin.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(origin.exitValue()).as("killed by signal 9").isEqualTo(137);
        }

        // A file torn mid-fragment on purpose, besides whatever the kill left.
        RecordingFile first = store.list().stream()
                .min(Comparator.comparingLong(RecordingFile::startEpochMs))
                .orElseThrow();
        Path whole = recordings.resolve(first.path());
        Path tornCopy = whole.resolveSibling("cam1-20200101T000000.000Z.mp4");
        byte[] bytes = Files.readAllBytes(whole);
        Files.write(tornCopy, Arrays.copyOf(bytes, bytes.length - 1000));
        // And one killed before its first fragment completed: the init segment and part of a fragment.
        int firstFragment = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("moof") - 4;
        Files.write(whole.resolveSibling("cam1-20200101T000001.000Z.mp4"), Arrays.copyOf(bytes, firstFragment + 100));

        Map<String, Long> completeBefore = new HashMap<>();
        Set<String> playableBefore = new TreeSet<>();
        for (RecordingFile f : store.list()) {
            byte[] written = Files.readAllBytes(recordings.resolve(f.path()));
            FragmentedMp4Tail.Tail tail = FragmentedMp4Tail.scan(ByteSource.of(written));
            completeBefore.put(f.path(), tail.completeLength());
            if (tail.fragments() > 0) {
                playableBefore.add(f.path());
            }
        }
        assertThat(completeBefore.get(store.root().relativize(tornCopy).toString()))
                .isLessThan(bytes.length - 1000L);

        int restartedHttpPort = Harness.freePort();
        try (OriginServer restarted = OriginServer.start(OriginConfig.assemble(
                OriginConfigFile.parse(
                        "restart.conf",
                        List.of(
                                "listen = 127.0.0.1",
                                "rtmp-port = " + Harness.freePort(),
                                "http-port = " + restartedHttpPort,
                                "srt-port = " + Harness.freeUdpPort(),
                                "no-publish-auth",
                                "record-dir = " + recordings)),
                List.of()))) {
            RecordingStore.Repair repair = restarted.recordingRepair();
            System.out.println("recordings after kill -9: " + repair);
            assertThat(repair.truncated())
                    .as("at least the file torn on purpose")
                    .isGreaterThanOrEqualTo(1);
            assertThat(repair.removed())
                    .as("every file killed before its first fragment completed is removed")
                    .isEqualTo(repair.initOnly())
                    .isEqualTo(completeBefore.size() - playableBefore.size())
                    .isGreaterThanOrEqualTo(1);
            assertThat(store.list())
                    .extracting(RecordingFile::path)
                    .containsExactlyInAnyOrderElementsOf(playableBefore);
            assertThat(listed(restartedHttpPort))
                    .as("/api/v1/recordings lists the playable files only")
                    .containsExactlyElementsOf(playableBefore);
            for (RecordingFile f : store.list()) {
                Path file = recordings.resolve(f.path());
                assertThat(Files.size(file))
                        .as("%s keeps every complete fragment and nothing more", f.path())
                        .isEqualTo(completeBefore.get(f.path()));
                assertThat(Peers.decode(file.toString(), 0).lines())
                        .as("decoding %s", f.path())
                        .isEmpty();
                assertThat(Peers.probe(file.toString()).output())
                        .as("%s", f.path())
                        .contains("codec_name=h264")
                        .contains("codec_name=aac");
            }
        }
    }

    private Process startOrigin(int rtmpPort, int httpPort, Path recordings) throws Exception {
        List<String> command = Harness.ternCommand(
                "origin",
                "--listen",
                "127.0.0.1",
                "--rtmp-port",
                Integer.toString(rtmpPort),
                "--http-port",
                Integer.toString(httpPort),
                "--srt-port", // not the default: another origin on this machine may hold it
                Integer.toString(Harness.freeUdpPort()),
                "--record-dir",
                recordings.toString(),
                "--record-rotate",
                "2s");
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Reads the origin's start-up lines until it printed where to publish and play. */
    private static Map<String, String> announcement(Process origin) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(origin.getInputStream(), StandardCharsets.UTF_8));
        Map<String, String> printed = new HashMap<>();
        StringBuilder all = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String line;
        while (printed.size() < 2 && System.nanoTime() < deadline && (line = out.readLine()) != null) {
            all.append(line).append('\n');
            if (line.startsWith("Publish with: ")) {
                printed.put("publish", line.substring(14).split(" ")[0]);
            } else if (line.startsWith("Play: ")) {
                printed.put("play", line.substring(6).split(" ")[0]);
            }
        }
        if (printed.size() < 2) {
            origin.destroyForcibly();
            throw new AssertionError("the origin did not announce its URLs: " + all);
        }
        Thread drain = new Thread(() -> out.lines().forEach(l -> {}));
        drain.setDaemon(true);
        drain.start();
        return printed;
    }

    /** The paths {@code GET /api/v1/recordings} lists (loopback: no token needed). */
    private static List<String> listed(int httpPort) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/api/v1/recordings"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            return Pattern.compile("\"path\":\"([^\"]+)\"")
                    .matcher(r.body())
                    .results()
                    .map(m -> m.group(1))
                    .toList();
        }
    }

    private static void awaitPlayable(String url) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            Await.await(
                    url + " served",
                    Duration.ofSeconds(20),
                    Duration.ofMillis(200),
                    () -> http.send(
                                            HttpRequest.newBuilder(URI.create(url))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString())
                                    .statusCode()
                            == 200);
        }
    }
}
