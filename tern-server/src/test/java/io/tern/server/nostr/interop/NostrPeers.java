package io.tern.server.nostr.interop;

import static org.assertj.core.api.Assertions.fail;

import io.tern.server.origin.harness.Harness;
import io.tern.server.origin.harness.Json;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Nostr clients the relay is tested against ({@code src/test/nostr}, installed by {@code npm
 * ci}): nostr-tools and ws on Node, nostr-tools bundled by esbuild for Chromium through
 * playwright-core. A missing peer skips locally and fails with {@code CI=true}.
 */
public final class NostrPeers {
    static final Path DIR = Path.of(System.getProperty("basedir", "."), "src/test/nostr");

    private NostrPeers() {}

    private static String module(String name) {
        return Files.isDirectory(DIR.resolve("node_modules").resolve(name))
                ? null
                : name + " (npm ci in tern-server/src/test/nostr)";
    }

    public static void requireNode() {
        Harness.require("the Nostr client tests", Harness.node(), module("nostr-tools"), module("ws"));
    }

    static void requireBrowser() {
        Harness.require(
                "the Nostr browser test",
                Harness.node(),
                Harness.chromium(),
                module("nostr-tools"),
                module("esbuild"),
                module("playwright-core"));
    }

    /** Runs {@code node script args...} and returns its JSON line, failing the test unless it says ok. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> run(long timeoutSeconds, String script, String... args) throws Exception {
        Path home = Files.createTempDirectory("tern-nostr-node");
        Path stdout = home.resolve("stdout.txt");
        Path stderr = home.resolve("stderr.txt");
        String[] command = new String[args.length + 2];
        command[0] = "node";
        command[1] = script;
        System.arraycopy(args, 0, command, 2, args.length);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(DIR.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        // Chromium's profile, NSS database and crash dumps go under a private HOME.
        builder.environment().put("HOME", home.toString());
        builder.environment().put("TMPDIR", home.toString());
        builder.environment().put("TERN_CHROMIUM", Harness.CHROMIUM.toString());
        Process node = builder.start();
        try {
            if (!node.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                fail(script + " did not finish in " + timeoutSeconds + " s; stderr: " + Files.readString(stderr));
            }
            String out = Files.readString(stdout, StandardCharsets.UTF_8).trim();
            if (out.isEmpty()) {
                fail(script + " printed nothing, exit " + node.exitValue() + "; stderr: " + Files.readString(stderr));
            }
            Map<String, Object> json = (Map<String, Object>)
                    Json.parse(out.lines().reduce((a, b) -> b).orElseThrow());
            if (!Boolean.TRUE.equals(json.get("ok"))) {
                fail(script + " " + String.join(" ", args) + " failed: " + json.get("error") + "; stderr: "
                        + Files.readString(stderr));
            }
            return json;
        } finally {
            node.descendants().forEach(ProcessHandle::destroyForcibly);
            node.destroyForcibly();
            Harness.deleteTree(home);
        }
    }
}
