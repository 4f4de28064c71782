package io.tern.nostr.interop;

import io.tern.testkit.ExternalPeers;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Node with nostr-tools (src/test/node, installed by {@code npm ci}), found through
 * {@link ExternalPeers}: missing, it skips the test, or fails it with {@code CI=true}.
 */
final class NodePeer {
    static final Path DIR = Path.of("src/test/node").toAbsolutePath();

    private NodePeer() {}

    static void require() {
        ExternalPeers.require("node", "nodejs");
        ExternalPeers.require(
                Files.isDirectory(DIR.resolve("node_modules/nostr-tools")),
                "node's nostr-tools",
                "(cd tern-nostr/src/test/node && npm ci)");
    }
}
