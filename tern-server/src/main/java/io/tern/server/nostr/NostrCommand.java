package io.tern.server.nostr;

import io.tern.server.cli.TableOptions;
import io.tern.server.config.ConfigException;
import io.tern.server.config.ConfigSource;
import io.tern.server.log.LogLevelOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tern nostr}: a Nostr relay on embedded defaults. Reads {@code -c FILE}, applies the
 * command line over it, validates everything, and hands the {@link NostrSettings} to the
 * {@link Launcher}. The options come from {@link NostrOptions}, one row each.
 */
@Command(
        name = "nostr",
        sortOptions = false,
        usageHelpAutoWidth = true,
        headerHeading = "%n",
        header = "Run a Nostr relay (NIP-01, 09, 11, 40, 42, 45) with an embedded SQLite store.",
        abbreviateSynopsis = true,
        description = {
            "Each option can also be written in the -c file as 'name=value' or 'name value' (a bare 'name' for"
                    + " on/off options); the command line overrides the file.",
        },
        optionListHeading = "%nOptions:%n",
        footer = {"", "Exit codes: 0 normal end, 2 invalid option or configuration, 1 failure while running."})
public final class NostrCommand implements Callable<Integer> {
    /** Starts the relay with validated settings and returns the exit code when it stops. */
    @FunctionalInterface
    public interface Launcher {
        int launch(NostrSettings settings) throws Exception;
    }

    private record Occurrence(NostrOptions.Row row, String value) {}

    private final Launcher launcher;
    private final List<Occurrence> commandLine = new ArrayList<>();

    @Spec
    private CommandSpec spec;

    @Option(
            names = "-c",
            paramLabel = "<file>",
            order = -1,
            description = "Configuration file ('name=value' lines). Default: none.")
    private Path configFile;

    @Mixin
    private LogLevelOption logLevel = new LogLevelOption();

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            order = 1000,
            description = "Show this help and exit.")
    private boolean help;

    public NostrCommand(Launcher launcher) {
        this.launcher = launcher;
    }

    /** The command with one {@code --name} option per row of {@link NostrOptions}. */
    public static CommandLine commandLine(Launcher launcher) {
        NostrCommand command = new NostrCommand(launcher);
        CommandLine line = new CommandLine(command);
        TableOptions options = new TableOptions(line);
        for (NostrOptions.Row row : NostrOptions.all()) {
            options.add(
                    row.name(),
                    row.label(),
                    row.helpWithDefault(),
                    row.label().equals("<on|off>"),
                    value -> command.commandLine.add(new Occurrence(row, value)));
        }
        return line;
    }

    @Override
    public Integer call() throws Exception {
        NostrSettings settings = new NostrSettings();
        try {
            if (configFile != null) {
                for (NostrConfigFile.Entry entry : NostrConfigFile.read(configFile)) {
                    entry.row().apply(settings, entry.value(), entry.source());
                }
            }
            for (Occurrence occurrence : commandLine) {
                occurrence.row().apply(settings, occurrence.value(), ConfigSource.commandLine());
            }
            settings.relayConfig();
            settings.storeConfig();
        } catch (ConfigException e) {
            spec.commandLine().getErr().println("tern nostr: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return CommandLine.ExitCode.USAGE;
        } finally {
            commandLine.clear();
        }
        logLevel.request();
        return launcher.launch(settings);
    }
}
