package io.tern.server.cli;

import io.tern.server.origin.config.OriginConfig;

/**
 * Starts the live origin with a validated configuration and returns the process exit code
 * (normally when the origin stops). {@code tern origin} calls it once, after validation.
 */
@FunctionalInterface
public interface OriginServerLauncher {
    int launch(OriginConfig config) throws Exception;
}
