package io.tern.server.cli;

import io.tern.server.origin.auth.PublishAuthorizer;
import io.tern.server.origin.auth.PublishHook;
import io.tern.server.origin.auth.PublishSecret;
import io.tern.server.origin.auth.PublishTokens;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import picocli.CommandLine.Option;

/**
 * The origin's publish-authorisation options, as a picocli mixin for {@code tern origin}
 * ({@code @Mixin PublishAuthOptions publishAuth;}).
 */
public final class PublishAuthOptions {
    @Option(names = "--no-publish-auth", description = "Let anyone publish, without a token (warned about).")
    boolean noPublishAuth;

    @Option(names = "--publish-secret", description = "The shared secret publish tokens are signed with.")
    String secret;

    @Option(
            names = "--publish-secret-file",
            description = "A file whose first line is the secret. Without either, one is generated and printed.")
    Path secretFile;

    @Option(
            names = "--on-publish",
            paramLabel = "URL",
            description = "POST each publish (JSON) to URL; only a 2xx answer allows it.")
    String onPublish;

    @Option(
            names = "--on-publish-timeout-ms",
            description = "How long the hook may take before the publish is refused. Default: ${DEFAULT-VALUE}.")
    long onPublishTimeoutMs = 3000;

    /**
     * What the options configure.
     *
     * @param authorizer the check to run on every publish
     * @param secret     the secret in use (generated ones must be printed), or null with {@code --no-publish-auth}
     */
    public record Setup(PublishAuthorizer authorizer, PublishSecret secret) {}

    /** @throws IllegalArgumentException naming the option and the value that cannot be used */
    public Setup build(SecureRandom random, InstantSource clock) {
        if (noPublishAuth && (secret != null || secretFile != null)) {
            throw new IllegalArgumentException("--no-publish-auth excludes --publish-secret and --publish-secret-file");
        }
        PublishHook hook = null;
        if (onPublish != null) {
            URI uri;
            try {
                uri = new URI(onPublish);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("--on-publish '" + onPublish + "' is not a URL: " + e.getMessage());
            }
            if (onPublishTimeoutMs <= 0) {
                throw new IllegalArgumentException(
                        "--on-publish-timeout-ms must be positive, got " + onPublishTimeoutMs);
            }
            hook = new PublishHook(uri, Duration.ofMillis(onPublishTimeoutMs));
        }
        if (noPublishAuth) {
            return new Setup(new PublishAuthorizer(null, hook), null);
        }
        PublishSecret resolved = PublishSecret.resolve(secret, secretFile, random);
        return new Setup(new PublishAuthorizer(new PublishTokens(resolved.secret(), clock), hook), resolved);
    }
}
