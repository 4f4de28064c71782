package io.tern.server.cli;

import io.tern.server.config.TernVersion;
import io.tern.server.config.WarningSink;
import io.tern.server.nostr.NostrCommand;
import io.tern.server.nostr.NostrRelayLauncher;
import io.tern.server.origin.OriginLauncher;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tern}: the top-level command; each product is a subcommand ({@code turn}, {@code origin}, ...). */
@Command(
        name = "tern",
        versionProvider = TernCommand.Version.class,
        header = "Tern, a real-time media edge.",
        synopsisSubcommandLabel = "COMMAND",
        commandListHeading = "%nCommands:%n",
        optionListHeading = "%nOptions:%n",
        footer = {"", "Run 'tern COMMAND --help' for the options of a command."})
public final class TernCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    private boolean help;

    @Option(names = "--version", versionHelp = true, description = "Print the version and exit.")
    private boolean version;

    /**
     * The complete command line: {@code tern} with its {@code turn} subcommand.
     *
     * @param launcher starts the TURN server once {@code tern turn} has a valid configuration
     * @param warnings receives start-up warnings (unsupported coturn options, ...)
     */
    public static CommandLine commandLine(final TurnServerLauncher launcher, final WarningSink warnings) {
        return commandLine(launcher, new OriginLauncher(System.out), warnings);
    }

    /** As {@link #commandLine(TurnServerLauncher, WarningSink)}, with {@code origin} starting through {@code origin}. */
    public static CommandLine commandLine(
            final TurnServerLauncher launcher, final OriginServerLauncher origin, final WarningSink warnings) {
        final TurnCommand turn = new TurnCommand(launcher, warnings);
        final CommandLine turnLine = new CommandLine(turn);
        turn.addCoturnOptions(turnLine.getCommandSpec());
        final CommandLine originLine = OriginCommand.commandLine(origin);
        final CommandLine commandLine = new CommandLine(new TernCommand())
                .addSubcommand("turn", turnLine)
                .addSubcommand("origin", originLine)
                .addSubcommand("ws-echo", new CommandLine(new WsEchoCommand()))
                .addSubcommand("origin-token", new CommandLine(new OriginTokenCommand()))
                .addSubcommand("nostr", NostrCommand.commandLine(new NostrRelayLauncher(System.out)));
        commandLine.setExpandAtFiles(false);
        commandLine.setOverwrittenOptionsAllowed(true);
        // A failure while starting (a busy port, an unreadable certificate) is one line for the
        // operator, not a stack trace; the cause chain is kept for -V.
        final CommandLine.IExecutionExceptionHandler failure = (ex, line, parseResult) -> {
            Throwable top = ex;
            while (top.getCause() != null
                    && top.getMessage() != null
                    && top.getMessage().equals(top.getCause().toString())) {
                top = top.getCause();
            }
            final StringBuilder message = new StringBuilder("tern: ").append(top.getMessage());
            for (Throwable cause = top.getCause();
                    cause != null && cause != cause.getCause();
                    cause = cause.getCause()) {
                if (cause.getMessage() != null && !message.toString().contains(cause.getMessage())) {
                    message.append(": ").append(cause.getMessage());
                }
            }
            line.getErr().println(message);
            return 1;
        };
        commandLine.setExecutionExceptionHandler(failure);
        turnLine.setExecutionExceptionHandler(failure);
        originLine.setExecutionExceptionHandler(failure);
        commandLine.getSubcommands().get("nostr").setExecutionExceptionHandler(failure);
        return commandLine;
    }

    /** {@code tern} without a command: print help, usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }

    /** Supplies {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"tern " + TernVersion.version()};
        }
    }
}
