package io.tern.server;

import io.tern.server.cli.TurnServerLauncher;
import io.tern.server.relay.RelayLauncher;

/** Where {@link Main} gets the launcher for {@code tern turn}. The one place to plug the real server in. */
public final class TurnServerLaunchers {
    private TurnServerLaunchers() {}

    /** The launcher {@code tern turn} uses when {@code --print-config} is not given: the relay itself. */
    public static TurnServerLauncher defaultLauncher() {
        return new RelayLauncher(System.out);
    }
}
