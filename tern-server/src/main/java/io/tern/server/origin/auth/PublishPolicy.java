package io.tern.server.origin.auth;

import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginOptions;
import io.tern.server.origin.config.StreamConfig;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/**
 * Who may publish which stream, from the configuration: the server's token secret (given, read
 * from a file, or generated at start), a stream's own secret from its section, {@code
 * no-publish-auth} server-wide or per stream, and the {@code --on-publish} hook for all. Secret
 * files are read once, at start.
 */
public final class PublishPolicy {
    private final PublishAuthorizer defaults;
    private final Map<String, PublishAuthorizer> perStream = new HashMap<>();
    private final PublishSecret serverSecret;
    private final PublishTokens serverTokens;

    public PublishPolicy(OriginConfig config, SecureRandom random, InstantSource clock) {
        PublishHook hook = config.get(OriginOptions.ON_PUBLISH) == null
                ? null
                : new PublishHook(
                        config.get(OriginOptions.ON_PUBLISH),
                        Duration.ofMillis(config.get(OriginOptions.ON_PUBLISH_TIMEOUT_MS)));
        StreamConfig server = config.streamDefaults();
        boolean serverSecretNeeded = !server.noPublishAuth();
        for (String name : config.configuredStreams()) {
            StreamConfig stream = config.stream(name);
            serverSecretNeeded |= !stream.noPublishAuth() && !stream.ownSecret();
        }
        this.serverSecret = serverSecretNeeded
                ? PublishSecret.resolve(server.publishSecret(), server.publishSecretFile(), random)
                : null;
        this.serverTokens = serverSecret == null ? null : new PublishTokens(serverSecret.secret(), clock);
        this.defaults = authorizer(server, hook, clock);
        for (String name : config.configuredStreams()) {
            perStream.put(name, authorizer(config.stream(name), hook, clock));
        }
    }

    private PublishAuthorizer authorizer(StreamConfig stream, PublishHook hook, InstantSource clock) {
        if (stream.noPublishAuth()) {
            return new PublishAuthorizer(null, hook);
        }
        if (stream.ownSecret()) {
            PublishSecret own = PublishSecret.resolve(stream.publishSecret(), stream.publishSecretFile(), null);
            return new PublishAuthorizer(new PublishTokens(own.secret(), clock), hook);
        }
        return new PublishAuthorizer(serverTokens, hook);
    }

    /** The check for stream {@code name}. */
    public PublishAuthorizer authorizer(String name) {
        return perStream.getOrDefault(name, defaults);
    }

    /** The server-wide secret (null when no stream needs it): print it once if it was generated. */
    public PublishSecret serverSecret() {
        return serverSecret;
    }

    /** Tokens under the server-wide secret, for the example publish URL; null without one. */
    public PublishTokens serverTokens() {
        return serverTokens;
    }

    /** Whether streams without a section need a token. */
    public boolean tokensByDefault() {
        return defaults.tokens() != null;
    }
}
