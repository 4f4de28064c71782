package io.tern.server.cli;

import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What {@code tern turn}, {@code tern origin} and {@code tern nostr} share: {@code --help}, the
 * options of the command's table added as {@code --name} (each occurrence kept as text, in
 * argument order, and parsed together with the file's; {@link #withRows} for a table of
 * {@link io.tern.server.option.Option} rows, {@link TurnCommand} for coturn's aliases and
 * one-letter flags), and one way to end: a configuration
 * that does not hold prints {@code tern NAME: message} and exits with 2; a valid one is handed to
 * {@link #run}.
 *
 * @param <O> one option given on the command line, before it is parsed
 * @param <C> the command's checked configuration
 */
public abstract class ConfigCommand<O, C> implements Callable<Integer> {
    private final String name;
    private final List<O> commandLine = new ArrayList<>();

    @Spec
    private CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            order = 1000,
            description = "Show this help and exit.")
    private boolean help;

    protected ConfigCommand(String name) {
        this.name = name;
    }

    /**
     * The configuration from the file and {@code commandLine}, every value and combination checked.
     *
     * @param commandLine the table options given on the command line, in order
     * @throws ConfigException naming the option, the value and where it was written
     */
    protected abstract C assemble(List<O> commandLine);

    /** Starts the server (or prints) with a valid configuration and returns the exit code. */
    protected abstract int run(C config) throws Exception;

    @Override
    public final Integer call() throws Exception {
        List<O> given = List.copyOf(commandLine);
        commandLine.clear();
        C config;
        try {
            config = assemble(given);
        } catch (ConfigException e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("tern " + name + ": " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.USAGE;
        }
        return run(config);
    }

    /** Keeps one option given on the command line, in argument order, for {@link #assemble}. */
    protected final void given(O occurrence) {
        commandLine.add(occurrence);
    }

    /** Where {@code --print-config} and the like write. */
    protected final PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /**
     * The picocli command of {@code command}, with one {@code --name} option per row of
     * {@code rows}; an on/off row takes an optional value ({@code --record}, {@code --record=off}).
     */
    protected static CommandLine withRows(
            ConfigCommand<Occurrence, ?> command, List<io.tern.server.option.Option<?>> rows) {
        CommandLine line = new CommandLine(command);
        // A later occurrence overrides an earlier one, as a command-line value overrides the file's.
        line.setOverwrittenOptionsAllowed(true);
        int order = 0;
        for (io.tern.server.option.Option<?> row : rows) {
            OptionSpec.Builder option = OptionSpec.builder("--" + row.name())
                    .type(String.class)
                    .order(order++)
                    .paramLabel(row.paramLabel())
                    .description(row.helpWithDefault())
                    .hasInitialValue(false)
                    .setter(new Collector(
                            value -> command.given(new Occurrence(row, value, ConfigSource.commandLine()))));
            if (row.type().flag()) {
                option.arity("0..1").fallbackValue("");
            } else {
                option.arity("1");
            }
            line.getCommandSpec().addOption(option.build());
        }
        return line;
    }

    /** Hands each occurrence's text ({@code ""} for a bare flag) on; picocli's own field stays unset. */
    static final class Collector implements ISetter {
        private final Consumer<String> onValue;

        Collector(Consumer<String> onValue) {
            this.onValue = onValue;
        }

        @Override
        public <T> T set(T value) {
            if (value != null) {
                onValue.accept(value.toString());
            }
            return null;
        }
    }
}
