package io.tern.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.load.Transport;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TernTest {
    @ParameterizedTest
    @EnumSource(Transport.class)
    void liftsThePerIpConnectionBoundAboveTheLargestCell(Transport transport) {
        Path dir = Path.of("/tmp/run");
        Cell cell = new Cell(transport, 128, 160, 1, 1, 8);
        ServerKind.Settings s = new ServerKind.Settings(
                cell,
                3478,
                5349,
                61000,
                61999,
                "secret",
                "realm",
                dir,
                dir.resolve("cert.pem"),
                dir.resolve("key.pem"));
        List<String> command =
                new Tern(List.of("./tern", "turn"), dir, EnumSet.allOf(Transport.class), "test", "netty").command(s);

        assertThat(command)
                .startsWith("./tern", "turn")
                .containsSubsequence(ServerKind.commonOptions(s))
                .containsSequence("--max-tcp-connections-per-ip", "10000")
                .containsSequence("--udp-io", "netty");
    }
}
