package io.tern.server.cli;

import io.tern.server.config.ConfigSummary;
import io.tern.server.config.TurnServerConfig;
import java.io.PrintWriter;
import java.util.Objects;

/**
 * Prints the effective configuration in turnserver.conf syntax and returns 0; starts nothing.
 * Used by {@code tern turn --print-config}. A generated REST API secret is shown, since this is
 * the only place it can be read.
 */
public final class PrintConfigLauncher implements TurnServerLauncher {
    private final PrintWriter out;

    public PrintConfigLauncher(final PrintWriter out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    @Override
    public int launch(final TurnServerConfig config) {
        out.print(ConfigSummary.format(config, true));
        out.flush();
        return 0;
    }
}
