package io.tern.server.cli;

import io.tern.server.origin.auth.PublishSecret;
import io.tern.server.origin.auth.PublishTokens;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tern origin-token NAME --expires 1h}: mints a publish token under the origin's secret. */
@Command(
        name = "origin-token",
        mixinStandardHelpOptions = true,
        description = {
            "Print a publish token for a stream, as the origin checks it:",
            "  EXPIRY-hex(HMAC-SHA256(secret, APP/NAME:EXPIRY)), EXPIRY in Unix seconds.",
            "Publish with rtmp://HOST:1935/APP/NAME?token=TOKEN."
        })
public final class OriginTokenCommand implements Callable<Integer> {
    private final InstantSource clock;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The stream name (cam1 in rtmp://HOST/live/cam1).")
    private String name;

    @Option(names = "--app", description = "The application. Default: ${DEFAULT-VALUE}.")
    private String app = "live";

    @Option(
            names = "--expires",
            required = true,
            description = "How long it stays valid (3600, 90s, 30m, 1h, 7d) or until when (@UNIX-SECONDS).")
    private String expires;

    @Option(names = "--secret", description = "The origin's --publish-secret.")
    private String secret;

    @Option(names = "--secret-file", description = "A file whose first line is the secret (--publish-secret-file).")
    private Path secretFile;

    @Option(
            names = "--url",
            paramLabel = "BASE",
            description = "Print BASE/APP/NAME?token=TOKEN (BASE: rtmp://HOST:1935).")
    private String url;

    public OriginTokenCommand() {
        this(InstantSource.system());
    }

    OriginTokenCommand(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (secret == null && secretFile == null) {
            err.println("tern origin-token: give the origin's secret with --secret or --secret-file");
            return 2;
        }
        long expiry;
        PublishSecret resolved;
        try {
            expiry = expiry(expires, clock.instant().getEpochSecond());
            resolved = PublishSecret.resolve(secret, secretFile, null);
        } catch (IllegalArgumentException e) {
            err.println("tern origin-token: " + e.getMessage());
            return 2;
        }
        String token = new PublishTokens(resolved.secret(), clock).mint(app, name, expiry);
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                url == null ? token : url + "/" + app + "/" + name + "?" + PublishTokens.QUERY_PARAMETER + "=" + token);
        out.flush();
        return 0;
    }

    /** {@code --expires}: a duration from now, or {@code @} and an absolute Unix time. */
    static long expiry(String value, long nowEpochSeconds) {
        String v = value.trim();
        try {
            if (v.startsWith("@")) {
                return Long.parseLong(v.substring(1));
            }
            long unit = switch (v.isEmpty() ? ' ' : v.charAt(v.length() - 1)) {
                case 's' -> 1;
                case 'm' -> 60;
                case 'h' -> 3600;
                case 'd' -> 86_400;
                default -> 0;
            };
            long amount = Long.parseLong(unit == 0 ? v : v.substring(0, v.length() - 1));
            if (amount <= 0) {
                throw new NumberFormatException();
            }
            return nowEpochSeconds + amount * Math.max(unit, 1);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--expires '" + value
                    + "' is neither a positive duration (3600, 90s, 30m, 1h, 7d) nor @UNIX-SECONDS");
        }
    }
}
