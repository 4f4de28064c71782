package io.tern.bench.runner;

import io.tern.bench.load.Transport;
import java.nio.file.Path;
import java.util.List;

/**
 * The minimal C forwarder (tern-bench/src/main/c/minifwd.c): single-threaded, epoll and
 * recvmmsg/sendmmsg in batches of 64, no authentication. The floor a plain user-space relay
 * reaches on this kernel, run beside Tern and coturn in every UDP cell.
 */
final class Forwarder extends ServerKind {
    static final String NAME = "minifwd";

    private final Path binary;

    Forwarder(Path binary) {
        this.binary = binary;
    }

    @Override
    String name() {
        return NAME;
    }

    @Override
    String version() {
        return "minifwd (tern-bench/src/main/c, gcc -O2): 1 thread, epoll, recvmmsg/sendmmsg x64, no auth";
    }

    @Override
    boolean supports(Transport t) {
        return t == Transport.UDP;
    }

    @Override
    boolean authenticates() {
        return false;
    }

    @Override
    List<String> command(Settings s) {
        return List.of(
                binary.toString(),
                "--listen",
                "127.0.0.1:" + s.listeningPort(),
                "--relay-ip",
                "127.0.0.1",
                "--min-port",
                Integer.toString(s.minRelayPort()),
                "--max-port",
                Integer.toString(s.maxRelayPort()));
    }
}
