package io.tern.server.origin.harness;

import io.tern.server.Main;
import io.tern.testkit.ExternalPeers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the origin harness's peers live, and the CI rule for them: a missing peer skips a test
 * locally and fails it with {@code CI=true}.
 */
public final class Harness {
    /**
     * Ports already handed out: the kernel may give the same ephemeral port to two probes in a row
     * (both closed at once), and one server's two listeners would then clash.
     */
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The npm project with hls.js, hls-parser and playwright-core ({@code npm ci} there). */
    public static final Path ORIGIN_DIR = Path.of(System.getProperty("basedir", "."), "src/test/origin");

    public static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("TERN_CHROMIUM", "/usr/bin/chromium"));

    private Harness() {}

    /** Each check names what is missing and how to install it, or returns null. */
    public static String node() {
        return onPath("node") == null ? "node (apt-get install nodejs)" : null;
    }

    public static String npmModule(String module) {
        return Files.isDirectory(ORIGIN_DIR.resolve("node_modules").resolve(module))
                ? null
                : module + " (npm ci in tern-server/src/test/origin)";
    }

    public static String chromium() {
        return Files.isExecutable(CHROMIUM) ? null : CHROMIUM + " (apt-get install chromium)";
    }

    public static String program(String name, String debianPackage) {
        return onPath(name) == null ? name + " (apt-get install " + debianPackage + ")" : null;
    }

    /** Skips (locally) or fails (CI=true) unless every check passed. */
    public static void require(String what, String... checks) {
        List<String> missing = new ArrayList<>();
        for (String check : checks) {
            if (check != null) {
                missing.add(check);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        ExternalPeers.require(false, String.join(", ", missing), "needed by " + what);
    }

    public static Path onPath(String program) {
        return ExternalPeers.find(program).orElse(null);
    }

    /** {@code tern ARGS...} in a JVM of its own, on this test's class path, as a user would start it. */
    public static List<String> ternCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** A TCP port free on loopback right now. */
    public static int freePort() throws IOException {
        for (int attempt = 0; attempt < 64; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            }
        }
        throw new IOException("no TCP port on loopback that this JVM has not handed out already");
    }

    /** A UDP port free on loopback now (for the SRT listener). */
    public static int freeUdpPort() throws IOException {
        for (int attempt = 0; attempt < 64; attempt++) {
            try (java.net.DatagramSocket socket = new java.net.DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            }
        }
        throw new IOException("no UDP port on loopback that this JVM has not handed out already");
    }

    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
