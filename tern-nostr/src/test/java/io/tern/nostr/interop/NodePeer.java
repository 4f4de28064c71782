package io.tern.nostr.interop;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;

/**
 * Node with nostr-tools (src/test/node, installed by {@code npm ci}). Outside CI a missing peer
 * skips the test; with {@code CI=true} it fails, so CI can never pass without it.
 */
final class NodePeer {
    static final Path DIR = Path.of("src/test/node").toAbsolutePath();

    private NodePeer() {}

    static void require() {
        String path = System.getenv("PATH") == null ? "" : System.getenv("PATH");
        boolean node = Arrays.stream(path.split(File.pathSeparator))
                .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, "node")));
        if (node && Files.isDirectory(DIR.resolve("node_modules/nostr-tools"))) {
            return;
        }
        String message = "node with nostr-tools is not installed: (cd tern-nostr/src/test/node && npm ci)";
        if ("true".equals(System.getenv("CI"))) {
            fail(message);
        }
        Assumptions.abort(message);
    }
}
