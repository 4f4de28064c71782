package io.tern.bench.runner;

import io.tern.bench.load.Transport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How to start one relay with the shared, equivalent settings of a cell. */
abstract class ServerKind {
    /** Settings every server gets in a run. */
    record Settings(
            Cell cell,
            int listeningPort,
            int tlsPort,
            int minRelayPort,
            int maxRelayPort,
            String secret,
            String realm,
            Path runDir,
            Path cert,
            Path key) {
        int clientPort() {
            return cell.transport() == Transport.TLS ? tlsPort : listeningPort;
        }
    }

    abstract String name();

    abstract String version();

    abstract List<String> command(Settings s);

    boolean supports(Transport t) {
        return true;
    }

    /** Whether the server challenges the first Allocate (every TURN server; not the minimal forwarder). */
    boolean authenticates() {
        return true;
    }

    /** coturn's option names; Tern's CLI accepts the same ones. */
    static List<String> commonOptions(Settings s) {
        List<String> a = new ArrayList<>(List.of(
                "--listening-ip",
                "127.0.0.1",
                "--listening-port",
                Integer.toString(s.listeningPort()),
                "--relay-ip",
                "127.0.0.1",
                "--min-port",
                Integer.toString(s.minRelayPort()),
                "--max-port",
                Integer.toString(s.maxRelayPort()),
                "--use-auth-secret",
                "--static-auth-secret",
                s.secret(),
                "--realm",
                s.realm(),
                "--allow-loopback-peers",
                "--relay-threads",
                Integer.toString(s.cell().relayThreads())));
        switch (s.cell().transport()) {
            case UDP -> a.addAll(List.of("--no-tcp", "--no-tls"));
            case TCP -> a.addAll(List.of("--no-udp", "--no-tls"));
            case TLS ->
                a.addAll(List.of(
                        "--no-udp",
                        "--no-tcp",
                        "--tls-listening-port",
                        Integer.toString(s.tlsPort()),
                        "--cert",
                        s.cert().toString(),
                        "--pkey",
                        s.key().toString()));
        }
        return a;
    }
}
