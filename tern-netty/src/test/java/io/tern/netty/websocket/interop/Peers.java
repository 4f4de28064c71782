package io.tern.netty.websocket.interop;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Locates the real peers. Outside CI a missing peer skips the test; with {@code CI=true} it fails,
 * so a CI machine without the peers can never pass silently.
 */
final class Peers {
    static final Path PYTHON = Path.of("/usr/bin/python3");
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path NODE_DIR = Path.of("src/test/node").toAbsolutePath();
    static final Path PYTHON_PEER = Path.of("src/test/python/ws_peer.py").toAbsolutePath();

    private Peers() {}

    static void require(boolean available, String what) {
        if (available) {
            return;
        }
        String message = what + " is not installed; see tern-websocket/README.md (Interop peers)";
        if ("true".equals(System.getenv("CI"))) {
            fail(message);
        }
        Assumptions.abort(message);
    }

    static void requirePythonWebsockets() {
        require(
                Files.isExecutable(PYTHON) && exitsZero(PYTHON.toString(), "-c", "import websockets"),
                "/usr/bin/python3 with websockets (apt: python3-websockets)");
    }

    static void requireNodeWs() {
        require(
                exitsZero("node", "--version") && Files.isDirectory(NODE_DIR.resolve("node_modules/ws")),
                "node with ws (npm ci in tern-netty/src/test/node)");
    }

    static void requireChromium() {
        require(Files.isExecutable(CHROMIUM), "/usr/bin/chromium (apt: chromium)");
    }

    private static boolean exitsZero(String... command) {
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
