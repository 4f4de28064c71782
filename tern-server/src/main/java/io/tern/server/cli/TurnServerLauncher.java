package io.tern.server.cli;

import io.tern.server.config.TurnServerConfig;

/**
 * Starts the TURN server with a validated configuration and returns the process exit code
 * (normally when the server stops). {@code tern turn} calls it once, after validation.
 */
@FunctionalInterface
public interface TurnServerLauncher {
    int launch(TurnServerConfig config) throws Exception;
}
