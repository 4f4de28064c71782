package io.tern.server.origin.auth;

import java.util.concurrent.CompletableFuture;

/**
 * The origin's one question to ask before a publisher may publish: the token first (unless
 * {@code --no-publish-auth}), then the {@code --on-publish} hook if one is configured. A token
 * refusal never reaches the hook.
 *
 * @param tokens null when {@code --no-publish-auth}
 * @param hook   null without {@code --on-publish}
 */
public record PublishAuthorizer(PublishTokens tokens, PublishHook hook) {
    /** Completes, never exceptionally, with the decision for {@code request}. */
    public CompletableFuture<PublishDecision> authorize(PublishRequest request) {
        if (tokens != null) {
            PublishDecision token = tokens.verify(request);
            if (!token.allowed()) {
                return CompletableFuture.completedFuture(token);
            }
        }
        return hook == null ? CompletableFuture.completedFuture(PublishDecision.allow()) : hook.ask(request);
    }
}
