package io.tern.server.cli;

import io.tern.server.config.CoturnConfigReader;
import io.tern.server.config.CoturnOptions;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.TurnServerConfigAssembler;
import io.tern.server.config.WarningSink;
import io.tern.server.log.LogLevelOption;
import io.tern.server.option.Arity;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.option.Option.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code tern turn}: a STUN/TURN relay configured like coturn. Reads {@code -c FILE} (coturn's
 * turnserver.conf format), applies the command-line options over it, validates, and hands the
 * resulting {@link TurnServerConfig} to the {@link TurnServerLauncher}.
 *
 * <p>The coturn options are not annotated fields: they are added from {@link CoturnOptions} by
 * {@link #addCoturnOptions(CommandSpec)}, so the file reader and the command line share one table.
 */
@Command(
        name = "turn",
        sortOptions = false,
        usageHelpAutoWidth = true,
        headerHeading = "%n",
        header = "Run a STUN/TURN relay (a drop-in replacement for coturn's turnserver).",
        abbreviateSynopsis = true,
        description = {
            "Options are coturn's. Each can also be written in the -c file as 'name=value', 'name value' or, "
                    + "for flags, a bare 'name'. The command line overrides the file; a repeatable option given on "
                    + "the command line replaces the file's values for it.",
            "Flags take an optional value: --fingerprint=off (on/off, yes/no, 1/0, true/false)."
        },
        optionListHeading = "%nOptions:%n")
public final class TurnCommand extends ConfigCommand<Occurrence, TurnServerConfig> {
    private final TurnServerLauncher launcher;
    private final WarningSink warnings;

    @CommandLine.Option(
            names = "-c",
            paramLabel = "<file>",
            order = -3,
            description = "Configuration file in coturn's turnserver.conf format. Default: none "
                    + "(unlike coturn, Tern does not look for turnserver.conf in default locations).")
    private Path configFile;

    @CommandLine.Option(
            names = "-n",
            order = -2,
            description = "Do not read a configuration file, even if -c is given (as coturn). Default: off.")
    private boolean noConfigFile;

    @CommandLine.Option(
            names = "--print-config",
            order = -1,
            description = "Print the effective configuration in turnserver.conf syntax and exit without "
                    + "starting the server. Default: off.")
    private boolean printConfig;

    @Mixin
    private LogLevelOption logLevel = new LogLevelOption();

    public TurnCommand(final TurnServerLauncher launcher, final WarningSink warnings) {
        super("turn");
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.warnings = Objects.requireNonNull(warnings, "warnings");
    }

    /** Adds one option per row of {@link CoturnOptions}; unsupported ones are hidden from help. */
    void addCoturnOptions(final CommandSpec commandSpec) {
        int order = 0;
        for (final Option<?> option : CoturnOptions.all()) {
            final boolean hidden = option.status() != Status.SUPPORTED;
            commandSpec.addOption(longOption(option, option.name(), order++, hidden));
            for (final String alias : option.aliases()) {
                commandSpec.addOption(longOption(option, alias, order++, true));
            }
            if (option.shortFlag() != null && option.arity() == Arity.FLAG) {
                // coturn's short flags take no value (-vf is -v -f); the long forms take an optional one.
                commandSpec.addOption(OptionSpec.builder(option.shortFlag())
                        .arity("0")
                        .type(boolean.class)
                        .hidden(true)
                        .hasInitialValue(false)
                        .setter(new Collector(option, option.name()))
                        .build());
            }
        }
        commandSpec
                .usageMessage()
                .footer(
                        "",
                        "Also accepted for coturn compatibility, ignored with one warning each:",
                        CoturnOptions.withStatus(Status.UNSUPPORTED).stream()
                                        .map(TurnCommand::namesOf)
                                        .collect(Collectors.joining(", "))
                                + ".",
                        "Accepted silently (Tern always behaves this way): "
                                + CoturnOptions.withStatus(Status.ALWAYS_TRUE).stream()
                                        .map(TurnCommand::namesOf)
                                        .collect(Collectors.joining(", "))
                                + ".",
                        "",
                        "Exit codes: 0 normal end, 2 invalid option or configuration, 1 failure while running.");
    }

    /** {@code --name}, with the row's short flag when it takes a value ({@code -p, --listening-port}). */
    private OptionSpec longOption(final Option<?> option, final String name, final int order, final boolean hidden) {
        final OptionSpec.Builder builder = OptionSpec.builder("--" + name)
                .type(String.class)
                .order(order)
                .hidden(hidden)
                .hasInitialValue(false)
                .setter(new Collector(option, name));
        final String help = option.helpWithDefault();
        if (option.arity() == Arity.FLAG) {
            builder.arity("0..1")
                    .fallbackValue("")
                    .paramLabel("<on|off>")
                    .description(option.shortFlag() == null ? help : "(" + option.shortFlag() + ") " + help);
        } else {
            if (option.shortFlag() != null && name.equals(option.name())) {
                builder.names("--" + name, option.shortFlag());
            }
            builder.description(help)
                    .paramLabel(option.paramLabel())
                    .arity(option.arity() == Arity.REQUIRED_VALUE ? "1" : "0..1");
            if (option.arity() == Arity.OPTIONAL_VALUE) {
                builder.fallbackValue("");
            }
        }
        return builder.build();
    }

    @Override
    protected TurnServerConfig assemble(final List<Occurrence> commandLine) {
        final List<Occurrence> file =
                configFile == null || noConfigFile ? List.of() : new CoturnConfigReader(warnings).read(configFile);
        return new TurnServerConfigAssembler(warnings).assemble(file, commandLine);
    }

    @Override
    protected int run(final TurnServerConfig config) throws Exception {
        if (printConfig) {
            return new PrintConfigLauncher(out()).launch(config);
        }
        logLevel.request();
        return launcher.launch(config);
    }

    /** {@code userdb (db, -b)}: the name, then its aliases and short flag. */
    private static String namesOf(final Option<?> option) {
        final List<String> others = new ArrayList<>(option.aliases());
        if (option.shortFlag() != null) {
            others.add(option.shortFlag());
        }
        return option.name() + (others.isEmpty() ? "" : " (" + String.join(", ", others) + ")");
    }

    /** Records each occurrence, in argument order, as an {@link Occurrence}. */
    private final class Collector implements ISetter {
        private final Option<?> option;
        private final String name;

        Collector(final Option<?> option, final String name) {
            this.option = option;
            this.name = name;
        }

        @Override
        public <T> T set(final T value) {
            if (value instanceof Boolean) {
                // a short flag such as -v: present means on
                given(new Occurrence(option, name, "", ConfigSource.commandLine(), null));
            } else if (value != null) {
                given(new Occurrence(option, name, value.toString(), ConfigSource.commandLine(), null));
            }
            return null;
        }
    }
}
