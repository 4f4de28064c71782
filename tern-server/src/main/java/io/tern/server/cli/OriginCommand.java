package io.tern.server.cli;

import io.tern.server.config.ConfigException;
import io.tern.server.config.ConfigSource;
import io.tern.server.origin.config.OptionOccurrence;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginConfigFile;
import io.tern.server.origin.config.OriginOption;
import io.tern.server.origin.config.OriginOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tern origin}: the live origin (RTMP in, LL-HLS out). Reads {@code -c FILE}, applies the
 * command line over it, validates, and hands the {@link OriginConfig} to the launcher. The options
 * are added from {@link OriginOptions}, so the file, the command line and help share one table.
 */
@Command(
        name = "origin",
        sortOptions = false,
        usageHelpAutoWidth = true,
        headerHeading = "%n",
        header = "Run the live origin: RTMP ingest, Low-Latency HLS over HTTP/1.1 and HTTP/2, fMP4 recording.",
        abbreviateSynopsis = true,
        description = {
            "Publish to rtmp://HOST:RTMP-PORT/live/NAME?token=TOKEN, play http://HOST:HTTP-PORT/live/NAME/index.m3u8.",
            "Every option can also be written in the -c file as 'name = value' (a bare 'name' for flags);"
                    + " [stream NAME] sections there set the options marked 'Also per stream' for one stream."
                    + " The command line overrides the file's server-wide values.",
            "Flags take an optional value: --record=off (on/off, yes/no, true/false, 1/0)."
        },
        optionListHeading = "%nOptions:%n",
        footer = {"", "Exit codes: 0 normal end, 2 invalid option or configuration, 1 failure while running."})
public final class OriginCommand implements Callable<Integer> {
    private final OriginServerLauncher launcher;
    private final List<OptionOccurrence> commandLineValues = new ArrayList<>();

    @Spec
    private CommandSpec spec;

    @Option(
            names = "-c",
            paramLabel = "<file>",
            order = -2,
            description = "Configuration file (see above). Default: none.")
    private Path configFile;

    @Option(
            names = "--print-config",
            order = -1,
            description = "Print the effective configuration in the file's syntax and exit without starting.")
    private boolean printConfig;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            order = 1000,
            description = "Show this help and exit.")
    private boolean help;

    public OriginCommand(OriginServerLauncher launcher) {
        this.launcher = Objects.requireNonNull(launcher, "launcher");
    }

    /** The command with one option per row of {@link OriginOptions}. */
    public static CommandLine commandLine(OriginServerLauncher launcher) {
        OriginCommand command = new OriginCommand(launcher);
        CommandLine line = new CommandLine(command);
        TableOptions options = new TableOptions(line);
        for (OriginOption<?> row : OriginOptions.all()) {
            boolean flag = row.type().flag();
            options.add(
                    row.name(),
                    flag ? "<on|off>" : row.type().paramLabel(),
                    row.helpWithDefault(),
                    flag,
                    value -> command.commandLineValues.add(
                            new OptionOccurrence(row, value, ConfigSource.commandLine(), null)));
        }
        return line;
    }

    @Override
    public Integer call() throws Exception {
        List<OptionOccurrence> cli = List.copyOf(commandLineValues);
        commandLineValues.clear();
        OriginConfig config;
        try {
            List<OptionOccurrence> file = configFile == null ? List.of() : OriginConfigFile.read(configFile);
            config = OriginConfig.assemble(file, cli);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println("tern origin: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return CommandLine.ExitCode.USAGE;
        }
        if (printConfig) {
            spec.commandLine().getOut().print(config.print());
            spec.commandLine().getOut().flush();
            return 0;
        }
        return launcher.launch(config);
    }
}
