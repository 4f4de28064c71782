package io.tern.server;

import io.tern.server.cli.TernCommand;
import io.tern.server.config.WarningSink;

/** {@code tern}'s entry point. */
public final class Main {
    private Main() {}

    public static void main(final String[] args) {
        System.exit(run(args));
    }

    /** Runs {@code tern} with {@link TurnServerLaunchers#defaultLauncher()}; returns the exit code. */
    public static int run(final String... args) {
        return TernCommand.commandLine(TurnServerLaunchers.defaultLauncher(), WarningSink.systemLogger())
                .execute(args);
    }
}
