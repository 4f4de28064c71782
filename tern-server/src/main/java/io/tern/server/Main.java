package io.tern.server;

import io.tern.server.cli.TernCommand;
import io.tern.server.config.WarningSink;
import io.tern.server.relay.RelayLauncher;

/** {@code tern}'s entry point. */
public final class Main {
    private Main() {}

    public static void main(final String[] args) {
        System.exit(run(args));
    }

    /** Runs {@code tern}, {@code tern turn} starting the relay itself; returns the exit code. */
    public static int run(final String... args) {
        return TernCommand.commandLine(new RelayLauncher(System.out), WarningSink.systemLogger())
                .execute(args);
    }
}
