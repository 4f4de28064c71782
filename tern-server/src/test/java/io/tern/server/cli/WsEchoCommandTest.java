package io.tern.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class WsEchoCommandTest {
    private final StringWriter out = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = TernCommand.commandLine(config -> 0, message -> {});
        commandLine.setOut(new PrintWriter(out, true));
        return commandLine.execute(args);
    }

    @Test
    void ternListsTheWsEchoCommand() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("ws-echo", "turn");
    }

    @Test
    void wsEchoDocumentsItsPortAndHost() {
        assertThat(run("ws-echo", "--help")).isZero();
        assertThat(out.toString()).contains("--port", "Default: 9001", "--host");
    }
}
