package io.tern.server.interop;

import io.tern.server.Main;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code tern turn} as a process of its own, on the test's class path, started and listening. */
final class TernProcess {
    private TernProcess() {}

    /** Starts {@code tern turn <options>} and returns once it prints that it is listening (60 s at most). */
    static Process startTurn(List<String> options) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "turn"));
        command.addAll(options);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String line;
        while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
            if (line.startsWith("Tern relay listening")) {
                // Keep reading, so that the relay never blocks on a full pipe.
                Thread drain = new Thread(() -> out.lines().forEach(l -> {}));
                drain.setDaemon(true);
                drain.start();
                return process;
            }
        }
        process.destroyForcibly();
        throw new AssertionError("tern turn " + options + " did not start");
    }
}
