package io.tern.server.cli;

import io.tern.server.option.Occurrence;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginConfigFile;
import io.tern.server.origin.config.OriginOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
public final class OriginCommand extends ConfigCommand<Occurrence, OriginConfig> {
    private final OriginServerLauncher launcher;

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

    public OriginCommand(OriginServerLauncher launcher) {
        super("origin");
        this.launcher = Objects.requireNonNull(launcher, "launcher");
    }

    /** The command with one option per row of {@link OriginOptions}. */
    public static CommandLine commandLine(OriginServerLauncher launcher) {
        return withRows(new OriginCommand(launcher), OriginOptions.all());
    }

    @Override
    protected OriginConfig assemble(List<Occurrence> commandLine) {
        List<Occurrence> file = configFile == null ? List.of() : OriginConfigFile.read(configFile);
        return OriginConfig.assemble(file, commandLine);
    }

    @Override
    protected int run(OriginConfig config) throws Exception {
        if (printConfig) {
            out().print(config.print());
            out().flush();
            return 0;
        }
        return launcher.launch(config);
    }
}
