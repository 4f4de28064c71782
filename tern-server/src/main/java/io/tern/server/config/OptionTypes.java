package io.tern.server.config;

import io.tern.server.config.OptionDef.Arity;
import io.tern.stun.address.IpLiterals;
import io.tern.turn.policy.IpRange;
import java.net.InetAddress;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The value types of the option table. Each parser names the option, the value and where it was
 * written when it refuses a value ({@link ConfigException#invalidValue}).
 */
public final class OptionTypes {
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,10}");

    private OptionTypes() {}

    /** Reads one occurrence's text. */
    @FunctionalInterface
    interface Parser<V> {
        V parse(OptionValue occurrence);
    }

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

    /** A whole number in {@code min..max}. */
    public static OptionType<Integer> integer(final int min, final int max) {
        return scalar("<n>", v -> integer(v, min, max), String::valueOf);
    }

    /** A whole number {@code >= min}; a bare name means the option's default (coturn's get_int_value). */
    public static OptionType<Integer> optionalInteger(final String paramLabel, final int min) {
        final Parser<Integer> parser = v -> integer(v, min, Integer.MAX_VALUE);
        return new ScalarType<>(Arity.OPTIONAL_VALUE, paramLabel, parser, String::valueOf) {
            @Override
            public Integer apply(final Integer current, final OptionValue occurrence) {
                return occurrence.value().isEmpty() ? defaultOf(occurrence) : parser.parse(occurrence);
            }
        };
    }

    /** A port, 1-65535. */
    public static OptionType<Integer> port() {
        return scalar("<port>", v -> integer(v, 1, 65535), String::valueOf);
    }

    /** Any non-empty text, at most {@code maxChars} characters. */
    public static OptionType<String> text(final String paramLabel, final int maxChars) {
        return scalar(
                paramLabel,
                v -> {
                    final String text = required(v).value();
                    if (text.length() > maxChars) {
                        throw ConfigException.invalidValue(
                                v.name(), text, "must be at most " + maxChars + " characters", v.source());
                    }
                    return text;
                },
                Function.identity());
    }

    /** One of {@code choices}, written exactly so. */
    public static OptionType<String> choice(final String... choices) {
        final List<String> allowed = List.of(choices);
        return scalar(
                "<" + String.join("|", allowed) + ">",
                v -> {
                    final String text = required(v).value();
                    if (!allowed.contains(text)) {
                        throw ConfigException.invalidValue(
                                v.name(), text, "must be one of " + String.join(", ", allowed), v.source());
                    }
                    return text;
                },
                Function.identity());
    }

    /** One character. */
    public static OptionType<Character> character() {
        return scalar(
                "<char>",
                v -> {
                    final String text = required(v).value();
                    if (text.length() != 1) {
                        throw ConfigException.invalidValue(v.name(), text, "must be a single character", v.source());
                    }
                    return text.charAt(0);
                },
                String::valueOf);
    }

    /** An IP address literal. */
    public static OptionType<InetAddress> ip() {
        return scalar(
                "<ip>",
                v -> {
                    try {
                        return IpLiterals.parse(required(v).value().trim());
                    } catch (final IllegalArgumentException ex) {
                        throw ConfigException.invalidValue(v.name(), v.value(), "not an IP address", v.source());
                    }
                },
                InetAddress::getHostAddress);
    }

    /** coturn's {@code external-ip}: {@code public} or {@code public/private}. */
    public static OptionType<ExternalIpMapping> externalIp() {
        return scalar(
                "<public[/private]>",
                v -> {
                    try {
                        return ExternalIpMapping.parse(required(v).value());
                    } catch (final IllegalArgumentException ex) {
                        throw ConfigException.invalidValue(
                                v.name(),
                                v.value(),
                                "must be 'public-ip' or 'public-ip/private-ip': " + ex.getMessage(),
                                v.source());
                    }
                },
                ExternalIpMapping::toString);
    }

    /** {@code ip}, {@code ip1-ip2} or CIDR {@code ip/n}. */
    public static OptionType<IpRange> ipRange() {
        return scalar(
                "<ip[-ip]>",
                v -> {
                    try {
                        return IpRange.parse(required(v).value());
                    } catch (final IllegalArgumentException ex) {
                        throw ConfigException.invalidValue(
                                v.name(),
                                v.value(),
                                "must be 'ip', 'ip1-ip2' or 'ip/prefix': " + ex.getMessage(),
                                v.source());
                    }
                },
                IpRange::toString);
    }

    /** A file path, as written. */
    public static OptionType<Path> path() {
        return scalar("<file>", OptionTypes::path, Path::toString);
    }

    /** A file path; a relative one is resolved against the config file's directory, as coturn does for cert/pkey. */
    public static OptionType<Path> fileRelativeToConfig() {
        return scalar(
                "<file>",
                v -> {
                    final Path path = path(v);
                    final ConfigSource source = v.source();
                    if (path.isAbsolute() || source.isCommandLine()) {
                        return path;
                    }
                    final Path parent = Path.of(source.file()).toAbsolutePath().getParent();
                    return parent == null ? path : parent.resolve(path);
                },
                Path::toString);
    }

    /** Text kept as written, validated later: {@code user} (needs the final realm), secrets. */
    public static OptionType<String> raw(final String paramLabel) {
        return scalar(paramLabel, v -> required(v).value(), Function.identity());
    }

    /**
     * The occurrence itself, checked later against other options: {@code user} needs the final
     * realm, and its errors still name the line it came from.
     */
    public static OptionType<OptionValue> occurrence(final String paramLabel) {
        return scalar(paramLabel, OptionTypes::required, OptionValue::value);
    }

    /** Repeatable: every occurrence adds one element. */
    public static <E> OptionType<List<E>> repeatable(final OptionType<E> element) {
        return new OptionType<>() {
            @Override
            public Arity arity() {
                return element.arity();
            }

            @Override
            public String paramLabel() {
                return element.paramLabel();
            }

            @Override
            public List<E> apply(final List<E> current, final OptionValue occurrence) {
                final List<E> more = new ArrayList<>(current);
                more.add(element.apply(null, occurrence));
                return List.copyOf(more);
            }

            @Override
            public List<String> format(final List<E> value) {
                final List<String> lines = new ArrayList<>();
                value.forEach(e -> lines.addAll(element.format(e)));
                return lines;
            }

            @Override
            public boolean repeatable() {
                return true;
            }
        };
    }

    /** Absent unless given. */
    public static <E> OptionType<Optional<E>> optional(final OptionType<E> element) {
        return new OptionType<>() {
            @Override
            public Arity arity() {
                return element.arity();
            }

            @Override
            public String paramLabel() {
                return element.paramLabel();
            }

            @Override
            public Optional<E> apply(final Optional<E> current, final OptionValue occurrence) {
                return Optional.of(element.apply(null, occurrence));
            }

            @Override
            public List<String> format(final Optional<E> value) {
                return value.map(element::format).orElse(List.of());
            }
        };
    }

    /** A known coturn option Tern does not implement: its value is not read. */
    static OptionType<Void> ignored(final Arity arity) {
        return new OptionType<>() {
            @Override
            public Arity arity() {
                return arity;
            }

            @Override
            public String paramLabel() {
                return arity == Arity.FLAG ? "" : "<value>";
            }

            @Override
            public Void apply(final Void current, final OptionValue occurrence) {
                return null;
            }

            @Override
            public List<String> format(final Void value) {
                return List.of();
            }
        };
    }

    // ---- parsers -------------------------------------------------------------------------------

    private static <V> OptionType<V> scalar(
            final String paramLabel, final Parser<V> parser, final Function<V, String> formatter) {
        return new ScalarType<>(Arity.REQUIRED_VALUE, paramLabel, parser, formatter);
    }

    private static OptionValue required(final OptionValue v) {
        if (v.value().isEmpty()) {
            throw ConfigException.invalidValue(v.name(), v.value(), "a value is required", v.source());
        }
        return v;
    }

    /** coturn's get_bool_value, minus its acceptance of any word starting with y/t/n/f. */
    static boolean bool(final OptionValue v) {
        final String text = v.value().trim().toLowerCase(Locale.ROOT);
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
                throw ConfigException.invalidValue(
                        v.name(), v.value(), "use on/off, yes/no, 1/0 or true/false", v.source());
            }
        }
    }

    private static int integer(final OptionValue v, final int min, final int max) {
        final String text = v.value().trim();
        final String range =
                max == Integer.MAX_VALUE ? "must be a whole number >= " + min : "must be " + min + "-" + max;
        if (!INTEGER.matcher(text).matches()) {
            throw ConfigException.invalidValue(v.name(), v.value(), range, v.source());
        }
        final long value = Long.parseLong(text);
        if (value < min || value > max) {
            throw ConfigException.invalidValue(v.name(), v.value(), range, v.source());
        }
        return (int) value;
    }

    private static Path path(final OptionValue v) {
        try {
            return Path.of(required(v).value());
        } catch (final InvalidPathException ex) {
            throw ConfigException.invalidValue(v.name(), v.value(), "not a valid path", v.source());
        }
    }

    @SuppressWarnings("unchecked")
    private static <V> V defaultOf(final OptionValue occurrence) {
        return (V) occurrence.option().defaultValue();
    }

    /** One value; the last occurrence wins (as in coturn). */
    private static class ScalarType<V> implements OptionType<V> {
        private final Arity arity;
        private final String paramLabel;
        private final Parser<V> parser;
        private final Function<V, String> formatter;

        ScalarType(
                final Arity arity,
                final String paramLabel,
                final Parser<V> parser,
                final Function<V, String> formatter) {
            this.arity = arity;
            this.paramLabel = paramLabel;
            this.parser = parser;
            this.formatter = formatter;
        }

        @Override
        public Arity arity() {
            return arity;
        }

        @Override
        public String paramLabel() {
            return paramLabel;
        }

        @Override
        public V apply(final V current, final OptionValue occurrence) {
            return parser.parse(occurrence);
        }

        @Override
        public List<String> format(final V value) {
            return List.of(formatter.apply(value));
        }
    }

    private record FlagType(boolean sticky) implements OptionType<Boolean> {
        @Override
        public Arity arity() {
            return Arity.FLAG;
        }

        @Override
        public String paramLabel() {
            return "";
        }

        @Override
        public Boolean apply(final Boolean current, final OptionValue occurrence) {
            return sticky && current ? true : bool(occurrence);
        }

        @Override
        public List<String> format(final Boolean value) {
            return List.of(value ? "" : "off");
        }

        @Override
        public String describe(final Boolean value) {
            return value ? "on" : "off";
        }
    }
}
