package io.tern.nostr.interop;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Node with nostr-tools (src/test/node, installed by {@code npm ci}). Outside CI a missing peer
 * skips the test; with {@code CI=true} it fails, so CI can never pass without it.
 */
final class NodePeer {
    static final Path DIR = Path.of("src/test/node").toAbsolutePath();

    private NodePeer() {}

    static void require() {
        boolean available =
                exitsZero("node", "--version") && Files.isDirectory(DIR.resolve("node_modules/nostr-tools"));
        if (available) {
            return;
        }
        String message = "node with nostr-tools is not installed: (cd tern-nostr/src/test/node && npm ci)";
        if ("true".equals(System.getenv("CI"))) {
            fail(message);
        }
        Assumptions.abort(message);
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
