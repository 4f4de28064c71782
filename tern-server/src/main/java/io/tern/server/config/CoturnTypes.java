package io.tern.server.config;

import io.tern.server.option.Arity;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.OptionType;
import io.tern.server.option.OptionTypes;
import io.tern.stun.address.IpLiterals;
import io.tern.turn.policy.IpRange;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The value types of coturn's grammar, for {@link CoturnOptions}: its boolean words, a bare
 * {@code name} for an optional number, {@code external-ip}'s and the peer ranges' forms, and
 * paths relative to the config file. Ranges are {@link OptionTypes#integer}'s. Each refuses a
 * value with an {@link IllegalArgumentException} saying what it must be; {@link io.tern.server.option.Option} adds
 * the option, the value and where it was written.
 */
public final class CoturnTypes {
    private CoturnTypes() {}

    /** A {@code user} line kept as written, checked once the final realm is known; errors still name its line. */
    public record Given(String text, ConfigSource source) {}

    /**
     * A flag: a bare name means on, and coturn's boolean words are accepted ({@code name=off}).
     * Written as a bare name when on and as {@code name=off} when off.
     */
    public static OptionType<Boolean> flag() {
        return new FlagType(false);
    }

    /**
     * A flag that, once on, stays on: a later {@code =off} does not turn it off again. coturn's
     * {@code Verbose} works so.
     */
    public static OptionType<Boolean> stickyFlag() {
        return new FlagType(true);
    }

    /** A whole number {@code >= min}; a bare name means the option's default (coturn's get_int_value). */
    public static OptionType<Integer> optionalInteger(final String paramLabel, final int min) {
        final OptionType<Integer> number = OptionTypes.integer(paramLabel, min, Integer.MAX_VALUE);
        return new Scalar<>(paramLabel, number::parse, String::valueOf) {
            @Override
            public Arity arity() {
                return Arity.OPTIONAL_VALUE;
            }
        };
    }

    /** A port, 1-65535. */
    public static OptionType<Integer> port() {
        return OptionTypes.integer("<port>", 1, 65535);
    }

    /** Any non-empty text, at most {@code maxChars} characters. */
    public static OptionType<String> text(final String paramLabel, final int maxChars) {
        return new Scalar<>(
                paramLabel,
                text -> {
                    if (text.length() > maxChars) {
                        throw new IllegalArgumentException("must be at most " + maxChars + " characters");
                    }
                    return text;
                },
                Function.identity());
    }

    /** One of {@code choices}, written exactly so. */
    public static OptionType<String> choice(final String... choices) {
        final List<String> allowed = List.of(choices);
        return new Scalar<>(
                "<" + String.join("|", allowed) + ">",
                text -> {
                    if (!allowed.contains(text)) {
                        throw new IllegalArgumentException("must be one of " + String.join(", ", allowed));
                    }
                    return text;
                },
                Function.identity());
    }

    /** One character. */
    public static OptionType<Character> character() {
        return new Scalar<>(
                "<char>",
                text -> {
                    if (text.length() != 1) {
                        throw new IllegalArgumentException("must be a single character");
                    }
                    return text.charAt(0);
                },
                String::valueOf);
    }

    /** An IP address literal. */
    public static OptionType<InetAddress> ip() {
        return new Scalar<>(
                "<ip>",
                text -> {
                    try {
                        return IpLiterals.parse(text.trim());
                    } catch (final IllegalArgumentException ex) {
                        throw new IllegalArgumentException("not an IP address");
                    }
                },
                InetAddress::getHostAddress);
    }

    /**
     * An alternate server as coturn writes it: {@code ip}, {@code ip:port}, {@code [ipv6]:port} or
     * a bare IPv6 address; without a port, {@code defaultPort}.
     */
    public static OptionType<InetSocketAddress> serverAddress(final int defaultPort) {
        return new Scalar<>(
                "<ip[:port]>",
                text -> {
                    final String value = text.trim();
                    String host = value;
                    String port = null;
                    if (value.startsWith("[")) {
                        final int end = value.indexOf(']');
                        if (end < 0 || end + 1 < value.length() && value.charAt(end + 1) != ':') {
                            throw new IllegalArgumentException("must be 'ip', 'ip:port' or '[ipv6]:port'");
                        }
                        host = value.substring(1, end);
                        port = end + 1 < value.length() ? value.substring(end + 2) : null;
                    } else if (value.indexOf(':') >= 0 && value.indexOf(':') == value.lastIndexOf(':')) {
                        host = value.substring(0, value.indexOf(':'));
                        port = value.substring(value.indexOf(':') + 1);
                    }
                    final InetAddress ip;
                    try {
                        ip = IpLiterals.parse(host);
                    } catch (final IllegalArgumentException ex) {
                        throw new IllegalArgumentException("'" + host + "' is not an IP address");
                    }
                    return new InetSocketAddress(ip, port == null ? defaultPort : port().parse(port));
                },
                address -> address.getAddress() instanceof java.net.Inet6Address
                        ? "[" + address.getAddress().getHostAddress() + "]:" + address.getPort()
                        : address.getAddress().getHostAddress() + ":" + address.getPort());
    }

    /** coturn's {@code external-ip}: {@code public} or {@code public/private}. */
    public static OptionType<ExternalIpMapping> externalIp() {
        return new Scalar<>(
                "<public[/private]>",
                text -> {
                    try {
                        return ExternalIpMapping.parse(text);
                    } catch (final IllegalArgumentException ex) {
                        throw new IllegalArgumentException(
                                "must be 'public-ip' or 'public-ip/private-ip': " + ex.getMessage());
                    }
                },
                ExternalIpMapping::toString);
    }

    /** {@code ip}, {@code ip1-ip2} or CIDR {@code ip/n}. */
    public static OptionType<IpRange> ipRange() {
        return new Scalar<>(
                "<ip[-ip]>",
                text -> {
                    try {
                        return IpRange.parse(text);
                    } catch (final IllegalArgumentException ex) {
                        throw new IllegalArgumentException(
                                "must be 'ip', 'ip1-ip2' or 'ip/prefix': " + ex.getMessage());
                    }
                },
                IpRange::toString);
    }

    /** A file path, as written. */
    public static OptionType<Path> path() {
        return new Scalar<>("<file>", CoturnTypes::path, Path::toString);
    }

    /** A file path; a relative one is resolved against the config file's directory, as coturn does for cert/pkey. */
    public static OptionType<Path> fileRelativeToConfig() {
        return new Scalar<>("<file>", CoturnTypes::path, Path::toString) {
            @Override
            public Path apply(final Path current, final String text, final ConfigSource source) {
                final Path path = parse(text);
                if (path.isAbsolute() || source.isCommandLine()) {
                    return path;
                }
                final Path parent = Path.of(source.file()).toAbsolutePath().getParent();
                return parent == null ? path : parent.resolve(path);
            }
        };
    }

    /** Text kept as written, validated later: secrets. */
    public static OptionType<String> raw(final String paramLabel) {
        return new Scalar<>(paramLabel, Function.identity(), Function.identity());
    }

    /**
     * The text and where it was written, checked later against other options: {@code user} needs
     * the final realm, and its errors still name the line it came from.
     */
    public static OptionType<Given> given(final String paramLabel) {
        return new Scalar<>(paramLabel, text -> new Given(text, ConfigSource.commandLine()), Given::text) {
            @Override
            public Given apply(final Given current, final String text, final ConfigSource source) {
                parse(text);
                return new Given(text, source);
            }
        };
    }

    /** A known coturn option Tern does not implement: its value is not read. */
    static OptionType<Void> ignored(final Arity arity) {
        return new OptionType<>() {
            @Override
            public Void parse(final String text) {
                return null;
            }

            @Override
            public String format(final Void value) {
                return "";
            }

            @Override
            public List<String> lines(final Void value) {
                return List.of();
            }

            @Override
            public String paramLabel() {
                return arity == Arity.FLAG ? "" : "<value>";
            }

            @Override
            public Arity arity() {
                return arity;
            }
        };
    }

    /** coturn's get_bool_value, minus its acceptance of any word starting with y/t/n/f. */
    static boolean bool(final String value) {
        final String text = value.trim().toLowerCase(Locale.ROOT);
        switch (text) {
            case "", "1", "on", "yes", "y", "true", "t" -> {
                return true;
            }
            case "0", "off", "no", "n", "false", "f" -> {
                return false;
            }
            default -> {
                if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9') && text.charAt(0) != '0') {
                    return true;
                }
                throw new IllegalArgumentException("use on/off, yes/no, 1/0 or true/false");
            }
        }
    }

    private static Path path(final String text) {
        try {
            return Path.of(text);
        } catch (final InvalidPathException ex) {
            throw new IllegalArgumentException("not a valid path");
        }
    }

    /** One value that must not be empty; the last occurrence wins (as in coturn). */
    private static class Scalar<V> implements OptionType<V> {
        private final String paramLabel;
        private final Function<String, V> parser;
        private final Function<V, String> formatter;

        Scalar(final String paramLabel, final Function<String, V> parser, final Function<V, String> formatter) {
            this.paramLabel = paramLabel;
            this.parser = parser;
            this.formatter = formatter;
        }

        @Override
        public V parse(final String text) {
            if (text.isEmpty()) {
                throw new IllegalArgumentException("a value is required");
            }
            return parser.apply(text);
        }

        @Override
        public String format(final V value) {
            return formatter.apply(value);
        }

        @Override
        public String paramLabel() {
            return paramLabel;
        }
    }

    private record FlagType(boolean sticky) implements OptionType<Boolean> {
        @Override
        public Boolean parse(final String text) {
            return bool(text);
        }

        @Override
        public Boolean apply(final Boolean current, final String text, final ConfigSource source) {
            return sticky && current ? true : bool(text);
        }

        @Override
        public String format(final Boolean value) {
            return value ? "on" : "off";
        }

        @Override
        public List<String> lines(final Boolean value) {
            return List.of(value ? "" : "off");
        }

        @Override
        public String describe(final Boolean value) {
            return format(value);
        }

        @Override
        public String paramLabel() {
            return "";
        }

        @Override
        public Arity arity() {
            return Arity.FLAG;
        }
    }
}
