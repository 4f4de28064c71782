package io.tern.server.config;

import io.tern.server.option.Option;
import io.tern.server.option.Option.Status;

/**
 * Formats a {@link TurnServerConfig} in coturn's config-file syntax, one line per option of the
 * table, in table order, with explanations on separate {@code #} lines (coturn does not allow
 * trailing comments). Read back, the text gives the same configuration, except for what is never
 * printed: secrets and keys, and the generated secret unless asked for.
 */
public final class ConfigSummary {
    private ConfigSummary() {}

    /** Without the generated secret. */
    public static String format(final TurnServerConfig config) {
        return format(config, false);
    }

    /**
     * @param showGeneratedSecret print {@link TurnServerConfig#generatedSecret()} in clear, for the
     *                            one start-up message an operator needs to use it
     */
    public static String format(final TurnServerConfig config, final boolean showGeneratedSecret) {
        final StringBuilder out = new StringBuilder(1024);
        out.append("# Effective Tern ").append(TernVersion.version()).append(" TURN configuration\n");
        for (final Option<?> option : CoturnOptions.withStatus(Status.SUPPORTED)) {
            CoturnOptions.printing(option)
                    .lines(option, config, showGeneratedSecret)
                    .forEach(line -> out.append(line).append('\n'));
        }
        return out.toString();
    }
}
