package io.tern.server.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tern.server.cli.TernCommand;
import io.tern.testkit.ExternalPeers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/, checked offline: the Kubernetes tree rendered by {@code kubectl kustomize} and every
 * object validated against the Kubernetes schemas (deploy/validate, {@code node --test}); the
 * systemd units through {@code systemd-analyze verify}; and the relay's config as the DaemonSet
 * assembles it, read by {@code tern turn --print-config}. Nothing here runs a cluster or systemd.
 */
class DeployManifestsTest {
    private static final Path DEPLOY = Path.of("").toAbsolutePath().getParent().resolve("deploy");
    /** The installed launcher the units name; verify insists that ExecStart exists. */
    private static final String INSTALLED_LAUNCHER = "/opt/tern/bin/tern";

    @TempDir
    Path dir;

    private record Run(int exitCode, String output) {}

    private Run run(Path workingDir, List<String> command) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir, "run", ".log");
        Process process = new ProcessBuilder(command)
                .directory(workingDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            fail(command + " did not finish within 180 s:\n" + Files.readString(log));
        }
        return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    @Test
    void kustomizeRendersObjectsThatAreValidAgainstTheKubernetesSchemasAndDrainOnStop() throws Exception {
        ExternalPeers.require("kubectl", "kubernetes-client");
        Path node = ExternalPeers.require("node", "nodejs");
        Path validate = DEPLOY.resolve("validate");
        ExternalPeers.require(
                Files.isDirectory(validate.resolve("node_modules/kubernetes-models")),
                "deploy/validate's npm packages",
                "cd deploy/validate && npm ci");

        Run tests = run(validate, List.of(node.toString(), "--test"));

        assertThat(tests.exitCode()).as(tests.output()).isZero();
        assertThat(tests.output()).contains("# fail 0").doesNotContain("# pass 0");
    }

    @Test
    void systemdUnitsVerifyCleanly() throws Exception {
        Path analyze = ExternalPeers.require("systemd-analyze", "systemd");
        Path launcher = DEPLOY.resolve("container/tern");
        assertThat(Files.isExecutable(launcher)).as(launcher + " is executable").isTrue();
        List<String> command = new ArrayList<>(List.of(analyze.toString(), "verify"));
        try (var units = Files.list(DEPLOY.resolve("systemd"))) {
            for (Path unit : units.filter(p -> p.toString().endsWith(".service"))
                    .sorted()
                    .toList()) {
                // The same unit, naming the repository's copy of the launcher in place of the
                // installed one, which this machine does not have.
                Path copy = dir.resolve(unit.getFileName());
                Files.writeString(copy, Files.readString(unit).replace(INSTALLED_LAUNCHER, launcher.toString()));
                command.add(copy.toString());
            }
        }
        assertThat(command).hasSize(4);

        Run verify = run(dir, command);

        // verify exits 0 on a misspelt key or a bad value and only says so: any output is a finding.
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        assertThat(verify.output()).isEmpty();
    }

    @Test
    void theDaemonSetsConfigIsOneTernTurnAccepts() throws Exception {
        Path config = dir.resolve("turnserver.conf");
        Files.writeString(
                config,
                Files.readString(DEPLOY.resolve("kubernetes/turn/turnserver.conf"))
                        + Files.readString(DEPLOY.resolve("kubernetes/turn/secrets.conf"))
                        + Files.readString(DEPLOY.resolve("kubernetes/turn/redis.conf")));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine turn =
                TernCommand.commandLine(c -> fail("--print-config must not start the server"), message -> {});
        turn.setOut(new PrintWriter(out, true));
        turn.setErr(new PrintWriter(err, true));

        assertThat(turn.execute("turn", "-c", config.toString(), "--print-config"))
                .as(err.toString())
                .isZero();
        assertThat(out.toString())
                .contains("drain-on-term")
                .contains("prometheus-port=9641")
                .contains("stateless-nonce-secret: given")
                .contains("cluster-redis=redis://tern-redis-0.tern-redis.tern.svc:6379");
    }
}
