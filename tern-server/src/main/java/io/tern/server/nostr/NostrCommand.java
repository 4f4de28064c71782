package io.tern.server.nostr;

import io.tern.server.cli.ConfigCommand;
import io.tern.server.log.LogLevelOption;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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
public final class NostrCommand extends ConfigCommand<Occurrence, NostrSettings> {
    /** Starts the relay with validated settings and returns the exit code when it stops. */
    @FunctionalInterface
    public interface Launcher {
        int launch(NostrSettings settings) throws Exception;
    }

    private final Launcher launcher;

    @Option(
            names = "-c",
            paramLabel = "<file>",
            order = -2,
            description = "Configuration file ('name=value' lines). Default: none.")
    private Path configFile;

    @Mixin
    private LogLevelOption logLevel = new LogLevelOption();

    @Option(
            names = "--print-config",
            order = -1,
            description = "Print the effective configuration in the file's syntax and exit without starting.")
    private boolean printConfig;

    public NostrCommand(Launcher launcher) {
        super("nostr");
        this.launcher = launcher;
    }

    /** The command with one {@code --name} option per row of {@link NostrOptions}. */
    public static CommandLine commandLine(Launcher launcher) {
        return withRows(new NostrCommand(launcher), NostrOptions.all());
    }

    @Override
    protected NostrSettings assemble(List<Occurrence> commandLine) {
        List<Occurrence> all = new ArrayList<>(configFile == null ? List.of() : NostrConfigFile.read(configFile));
        all.addAll(commandLine);
        NostrSettings settings = new NostrSettings(Settings.assemble(NostrOptions.all(), all));
        settings.checkStore();
        return settings;
    }

    @Override
    protected int run(NostrSettings settings) throws Exception {
        if (printConfig) {
            out().print(settings.print());
            out().flush();
            return 0;
        }
        logLevel.request();
        return launcher.launch(settings);
    }
}
