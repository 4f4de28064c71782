package io.tern.server.config;

import java.net.InetAddress;
import java.util.List;

/**
 * Formats a {@link TurnServerConfig} in coturn's config-file syntax, one option per line, with
 * explanations on separate {@code #} lines (coturn does not allow trailing comments). Secrets
 * and keys are never printed, except the generated secret when asked for.
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

        line(out, "listening-port", config.listeningPort());
        line(out, "tls-listening-port", config.tlsListeningPort());
        comment(
                out,
                "TLS listener " + (config.tlsEnabled() ? "on" : "off") + ", DTLS listener "
                        + (config.dtlsEnabled() ? "on" : "off")
                        + (config.cert().isEmpty() && !(config.noTls() && config.noDtls())
                                ? " (no cert/pkey given)"
                                : ""));
        addresses(out, "listening-ip", config.listeningIps());
        if (config.relayIps().isEmpty()) {
            comment(out, "relay-ip: none given, the server picks");
        }
        addresses(out, "relay-ip", config.relayIps());
        config.externalIps().forEach(mapping -> line(out, "external-ip", mapping));
        line(out, "min-port", config.minPort());
        line(out, "max-port", config.maxPort());
        line(out, "relay-threads", config.relayThreads());
        flag(out, "no-udp", config.noUdp());
        flag(out, "no-tcp", config.noTcp());
        flag(out, "no-tls", config.noTls());
        flag(out, "no-dtls", config.noDtls());
        line(out, "max-tcp-connections", config.maxTcpConnections());
        line(out, "max-tcp-connections-per-ip", config.maxTcpConnectionsPerIp());
        line(out, "tcp-idle-timeout", config.tcpIdleTimeoutSeconds());
        line(out, "tcp-message-timeout", config.tcpMessageTimeoutSeconds());
        line(out, "tls-handshake-timeout", config.tlsHandshakeTimeoutSeconds());
        line(out, "tcp-write-low-water-mark", config.tcpWriteLowWaterMarkBytes());
        line(out, "tcp-write-high-water-mark", config.tcpWriteHighWaterMarkBytes());

        line(out, "realm", config.realm());
        comment(out, "authentication: " + config.authMode());
        switch (config.authMode()) {
            case NONE -> flag(out, "no-auth", true);
            case LONG_TERM -> {
                flag(out, "lt-cred-mech", true);
                config.staticUsers().forEach(user -> comment(out, "user: " + user.name() + " (key redacted)"));
            }
            case REST_SECRET -> {
                flag(out, "use-auth-secret", true);
                if (!config.staticAuthSecrets().isEmpty()) {
                    comment(
                            out,
                            "static-auth-secret: " + config.staticAuthSecrets().size() + " given (redacted)");
                }
                config.generatedSecret()
                        .ifPresent(secret -> comment(
                                out,
                                "static-auth-secret: generated"
                                        + (showGeneratedSecret ? ", shown once: " + secret : " (redacted)")));
            }
            default -> throw new IllegalStateException(config.authMode().toString());
        }
        line(out, "rest-api-separator", config.restApiSeparator());

        line(out, "user-quota", config.userQuota());
        line(out, "total-quota", config.totalQuota());
        line(out, "max-allocations", config.maxAllocations());
        comment(out, "default allocation lifetime: " + config.defaultAllocationLifetimeSeconds() + " s");
        line(out, "max-allocate-lifetime", config.maxAllocateLifetimeSeconds());
        line(out, "channel-lifetime", config.channelLifetimeSeconds());
        line(out, "permission-lifetime", config.permissionLifetimeSeconds());
        line(out, "stale-nonce", config.staleNonceSeconds());

        config.allowedPeerIps().forEach(range -> line(out, "allowed-peer-ip", range));
        config.deniedPeerIps().forEach(range -> line(out, "denied-peer-ip", range));
        flag(out, "allow-loopback-peers", config.allowLoopbackPeers());
        flag(out, "no-multicast-peers", config.noMulticastPeers());

        flag(out, "fingerprint", config.fingerprint());
        flag(out, "strict-channel-numbers", config.strictChannelNumbers());
        if (config.softwareAttribute().isPresent()) {
            comment(out, "SOFTWARE: " + config.softwareAttribute().get());
        } else {
            flag(out, "no-software-attribute", true);
        }

        config.cert().ifPresent(path -> line(out, "cert", path));
        config.pkey().ifPresent(path -> line(out, "pkey", path));
        config.cipherList().ifPresent(list -> line(out, "cipher-list", list));
        flag(out, "no-tlsv1", config.noTlsV1());
        flag(out, "no-tlsv1_1", config.noTlsV1_1());
        flag(out, "no-tlsv1_2", config.noTlsV1_2());

        config.logFile().ifPresent(file -> line(out, "log-file", file));
        flag(out, "verbose", config.verbosity() == Verbosity.NORMAL);
        flag(out, "Verbose", config.verbosity() == Verbosity.EXTRA);
        config.pidFile().ifPresent(file -> line(out, "pidfile", file));
        flag(out, "prometheus", config.prometheus());
        line(out, "prometheus-port", config.prometheusPort());
        return out.toString();
    }

    private static void addresses(final StringBuilder out, final String name, final List<InetAddress> addresses) {
        addresses.forEach(address -> line(out, name, address.getHostAddress()));
    }

    private static void line(final StringBuilder out, final String name, final Object value) {
        out.append(name).append('=').append(value).append('\n');
    }

    private static void flag(final StringBuilder out, final String name, final boolean on) {
        if (on) {
            out.append(name).append('\n');
        }
    }

    private static void comment(final StringBuilder out, final String text) {
        out.append("# ").append(text).append('\n');
    }
}
