package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tern.testkit.ExternalPeers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * coturn's own client tools, run as separate processes with bounded time. Outside CI a missing
 * tool skips the test; with {@code CI=true} it fails it, so interop can't silently vanish.
 */
public final class CoturnTools {
    private static final Pattern LOST = Pattern.compile("Total lost packets (\\d+)");
    private static final Pattern SENT_RECEIVED = Pattern.compile("tot_send_msgs=(\\d+), tot_recv_msgs=(\\d+)");

    private CoturnTools() {}

    public static Path require(String tool) {
        return ExternalPeers.requireAt(Path.of("/usr/bin", tool), "coturn");
    }

    /** Runs a tool to completion within {@code timeoutSeconds}; returns stdout and stderr together. */
    public static String run(int timeoutSeconds, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        // Read while it runs so a chatty tool never blocks on a full pipe.
        byte[][] output = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                output[0] = process.getInputStream().readAllBytes();
            } catch (IOException e) {
                output[0] = new byte[0];
            }
        });
        reader.start();
        boolean finished = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        reader.join(10_000);
        String text = output[0] == null ? "" : new String(output[0], StandardCharsets.UTF_8);
        assertThat(finished)
                .as("%s finished within %d s; output:%n%s", command[0], timeoutSeconds, text)
                .isTrue();
        return text;
    }

    /** Starts a long-running tool (turnutils_peer); the caller destroys it. */
    public static Process start(String... command) throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /** Messages sent and received, and packets lost, from turnutils_uclient's summary. */
    public record UclientResult(long sent, long received, long lost, String output) {
        public static UclientResult parse(String output) {
            // Progress lines come first; the final totals are the last match.
            Matcher counts = SENT_RECEIVED.matcher(output);
            long sent = -1;
            long received = -1;
            while (counts.find()) {
                sent = Long.parseLong(counts.group(1));
                received = Long.parseLong(counts.group(2));
            }
            Matcher lost = LOST.matcher(output);
            if (sent < 0 || !lost.find()) {
                fail("turnutils_uclient printed no summary:%n%s", output);
            }
            return new UclientResult(sent, received, Long.parseLong(lost.group(1)), output);
        }
    }

    public static List<String> command(Path tool, String... args) {
        List<String> command = new ArrayList<>();
        command.add(tool.toString());
        command.addAll(List.of(args));
        return command;
    }
}
