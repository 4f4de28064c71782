package io.tern.netty.websocket.interop;

import io.tern.testkit.ExternalPeers;
import java.nio.file.Files;
import java.nio.file.Path;

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

    static void requirePythonWebsockets() {
        ExternalPeers.requireAt(PYTHON, "python3");
        ExternalPeers.require(
                ExternalPeers.runs(PYTHON.toString(), "-c", "import websockets"),
                "python3's websockets",
                "apt-get install python3-websockets");
    }

    static void requireNodeWs() {
        ExternalPeers.require("node", "nodejs");
        ExternalPeers.require(
                Files.isDirectory(NODE_DIR.resolve("node_modules/ws")),
                "node's ws",
                "npm ci in tern-netty/src/test/node");
    }

    static void requireChromium() {
        ExternalPeers.requireAt(CHROMIUM, "chromium");
    }
}
