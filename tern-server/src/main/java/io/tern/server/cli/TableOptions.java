package io.tern.server.cli;

import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Adds the {@code --name} options of a command's option table to its picocli command: each takes
 * its value as text and hands every occurrence, in argument order, to the command, which parses
 * and checks them together with the file's. An on/off option takes an optional value
 * ({@code --record}, {@code --record=off}).
 */
public final class TableOptions {
    private final CommandLine line;
    private int order;

    public TableOptions(CommandLine line) {
        this.line = line;
        // A later occurrence overrides an earlier one, as a command-line value overrides the file's.
        line.setOverwrittenOptionsAllowed(true);
    }

    /** Adds {@code --name}; {@code onValue} gets each occurrence's text ({@code ""} for a bare flag). */
    public TableOptions add(
            String name, String paramLabel, String description, boolean onOff, Consumer<String> onValue) {
        OptionSpec.Builder option = OptionSpec.builder("--" + name)
                .type(String.class)
                .order(order++)
                .paramLabel(paramLabel)
                .description(description)
                .hasInitialValue(false)
                .setter(new Collector(onValue));
        if (onOff) {
            option.arity("0..1").fallbackValue("");
        } else {
            option.arity("1");
        }
        line.getCommandSpec().addOption(option.build());
        return this;
    }

    private static final class Collector implements ISetter {
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
