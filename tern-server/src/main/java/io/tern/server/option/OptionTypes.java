package io.tern.server.option;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value types of the options of {@code tern origin} and {@code tern nostr}. Each says in its
 * {@link IllegalArgumentException} what a value must be; where two products word a range
 * differently ({@link #integer} and {@link #wholeNumber}) both are kept, because operators' scripts
 * and the tests quote them.
 */
public final class OptionTypes {
    private static final Pattern INTEGER = Pattern.compile("[0-9]{1,12}");
    private static final Pattern LONG = Pattern.compile("[0-9]{1,18}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,12}(\\.[0-9]{1,9})?");
    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m|h|d)?");
    private static final Pattern SIZE = Pattern.compile("([0-9]{1,12})([KMGT]i?B?|B)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private OptionTypes() {}

    public static OptionType<Boolean> flag() {
        return new OptionType<>() {
            @Override
            public Boolean parse(String text) {
                return switch (text.trim().toLowerCase(Locale.ROOT)) {
                    case "", "on", "yes", "true", "1" -> true;
                    case "off", "no", "false", "0" -> false;
                    default -> throw new IllegalArgumentException("must be on or off (yes/no, true/false, 1/0)");
                };
            }

            @Override
            public String format(Boolean value) {
                return value ? "on" : "off";
            }

            @Override
            public String paramLabel() {
                return "";
            }

            @Override
            public Arity arity() {
                return Arity.FLAG;
            }
        };
    }

    /** A whole number in {@code min..max}, refused as "must be a whole number from MIN to MAX". */
    public static OptionType<Integer> wholeNumber(int min, int max) {
        return new Simple<>("<n>") {
            @Override
            public Integer parse(String text) {
                String t = text.trim();
                if (!INTEGER.matcher(t).matches() || Long.parseLong(t) < min || Long.parseLong(t) > max) {
                    throw new IllegalArgumentException("must be a whole number from " + min + " to " + max);
                }
                return Integer.parseInt(t);
            }
        };
    }

    /**
     * A whole number in {@code min..max}, refused as "must be MIN-MAX", or as "must be a whole
     * number >= MIN" when {@code max} is {@link Integer#MAX_VALUE}.
     */
    public static OptionType<Integer> integer(int min, int max) {
        return integer("<n>", min, max);
    }

    /** As {@link #integer(int, int)}, named {@code paramLabel} in help. */
    public static OptionType<Integer> integer(String paramLabel, int min, int max) {
        String rule = max == Integer.MAX_VALUE ? "must be a whole number >= " + min : "must be " + min + "-" + max;
        return new Simple<>(paramLabel) {
            @Override
            public Integer parse(String text) {
                String t = text.trim();
                if (!INTEGER.matcher(t).matches() || Long.parseLong(t) < min || Long.parseLong(t) > max) {
                    throw new IllegalArgumentException(rule);
                }
                return Integer.parseInt(t);
            }
        };
    }

    /** A whole number >= 0 up to 18 digits; its upper bound is the engine's to check. */
    public static OptionType<Long> count() {
        return new Simple<>("<n>") {
            @Override
            public Long parse(String text) {
                if (!LONG.matcher(text.trim()).matches()) {
                    throw new IllegalArgumentException("must be a whole number >= 0");
                }
                return Long.parseLong(text.trim());
            }
        };
    }

    /** A number >= 0 with an optional fraction ({@code 0.5}), printed without a fraction when it has none. */
    public static OptionType<Double> decimal(String paramLabel) {
        return new Simple<>(paramLabel) {
            @Override
            public Double parse(String text) {
                if (!DECIMAL.matcher(text.trim()).matches()) {
                    throw new IllegalArgumentException("must be a number >= 0, such as 50 or 0.5");
                }
                return Double.parseDouble(text.trim());
            }

            @Override
            public String format(Double value) {
                return value == Math.rint(value) ? Long.toString(value.longValue()) : Double.toString(value);
            }
        };
    }

    /** Any text, empty included, as written. */
    public static OptionType<String> anyText(String paramLabel) {
        return parsed(paramLabel, text -> text, text -> text);
    }

    /** A type of its own: {@code parse} throws an {@link IllegalArgumentException} saying what the value must be. */
    public static <V> OptionType<V> parsed(String paramLabel, Function<String, V> parse, Function<V, String> format) {
        return new Simple<>(paramLabel) {
            @Override
            public V parse(String text) {
                return parse.apply(text);
            }

            @Override
            public String format(V value) {
                return format.apply(value);
            }
        };
    }

    /** A port, 1-65535, refused as "must be a port number from 1 to 65535". */
    public static OptionType<Integer> port() {
        OptionType<Integer> range = integer(1, 65535);
        return new Simple<>("<port>") {
            @Override
            public Integer parse(String text) {
                try {
                    return range.parse(text);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("must be a port number from 1 to 65535");
                }
            }
        };
    }

    /** An IP address literal (no name lookups at start). */
    public static OptionType<InetAddress> address() {
        return new OptionType<>() {
            @Override
            public InetAddress parse(String text) {
                String t = text.trim();
                if (t.startsWith("[") && t.endsWith("]")) {
                    t = t.substring(1, t.length() - 1);
                }
                if (!IP_LITERAL.matcher(t).matches()) {
                    throw new IllegalArgumentException("must be an IP address such as 0.0.0.0, 127.0.0.1 or ::");
                }
                try {
                    return InetAddress.getByName(t);
                } catch (UnknownHostException e) {
                    throw new IllegalArgumentException("must be an IP address such as 0.0.0.0, 127.0.0.1 or ::");
                }
            }

            @Override
            public String format(InetAddress value) {
                return value.getHostAddress();
            }

            @Override
            public String paramLabel() {
                return "<address>";
            }
        };
    }

    public static OptionType<Path> path() {
        return path("<path>");
    }

    /** A file or directory path, named {@code paramLabel} in help. */
    public static OptionType<Path> path(String paramLabel) {
        return new Simple<>(paramLabel) {
            @Override
            public Path parse(String text) {
                String t = text.trim();
                if (t.isEmpty()) {
                    throw new IllegalArgumentException("must be a file or directory path");
                }
                try {
                    return Path.of(t);
                } catch (InvalidPathException e) {
                    throw new IllegalArgumentException("is not a valid path: " + e.getReason());
                }
            }
        };
    }

    /** Text that must not be empty (a secret). */
    public static OptionType<String> text(String paramLabel) {
        return new Simple<>(paramLabel) {
            @Override
            public String parse(String text) {
                if (text.isBlank()) {
                    throw new IllegalArgumentException("must not be empty");
                }
                return text.trim();
            }
        };
    }

    /** An http:// or https:// URL. */
    public static OptionType<URI> httpUrl() {
        return new Simple<>("<url>") {
            @Override
            public URI parse(String text) {
                try {
                    URI uri = new URI(text.trim());
                    String scheme =
                            uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                    if ((!scheme.equals("http") && !scheme.equals("https")) || uri.getHost() == null) {
                        throw new IllegalArgumentException("must be an http:// or https:// URL");
                    }
                    return uri;
                } catch (URISyntaxException e) {
                    throw new IllegalArgumentException("is not a URL: " + e.getReason());
                }
            }
        };
    }

    /** Milliseconds, written as {@code 500ms}, {@code 90s}, {@code 10m}, {@code 12h}, {@code 7d}, or bare seconds. */
    public static OptionType<Long> duration(long minMs) {
        return new Simple<>("<duration>") {
            @Override
            public Long parse(String text) {
                Matcher m = DURATION.matcher(text.trim());
                if (!m.matches()) {
                    throw new IllegalArgumentException(
                            "must be a duration such as 90s, 10m, 12h or 7d (bare: seconds)");
                }
                long n = Long.parseLong(m.group(1));
                String unit = m.group(2) == null ? "s" : m.group(2);
                long ms = switch (unit) {
                    case "ms" -> n;
                    case "s" -> n * 1000;
                    case "m" -> n * 60_000;
                    case "h" -> n * 3_600_000;
                    default -> n * 86_400_000;
                };
                if (ms != 0 && ms < minMs) {
                    throw new IllegalArgumentException("must be 0 (none) or at least " + format(minMs));
                }
                return ms;
            }

            @Override
            public String format(Long ms) {
                long[] units = {86_400_000, 3_600_000, 60_000, 1000};
                String[] names = {"d", "h", "m", "s"};
                for (int i = 0; i < units.length; i++) {
                    if (ms != 0 && ms % units[i] == 0) {
                        return ms / units[i] + names[i];
                    }
                }
                return ms == 0 ? "0" : ms + "ms";
            }
        };
    }

    /** Bytes, written as {@code 512K}, {@code 64M}, {@code 500G}, {@code 2T} (powers of 1024) or bare bytes. */
    public static OptionType<Long> size() {
        return new Simple<>("<size>") {
            @Override
            public Long parse(String text) {
                Matcher m = SIZE.matcher(text.trim());
                if (!m.matches()) {
                    throw new IllegalArgumentException("must be a size such as 64M, 500G or 2T (bare: bytes)");
                }
                long n = Long.parseLong(m.group(1));
                String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
                int shift = switch (unit.charAt(0)) {
                    case 'K' -> 10;
                    case 'M' -> 20;
                    case 'G' -> 30;
                    case 'T' -> 40;
                    default -> 0;
                };
                if (n > (Long.MAX_VALUE >> shift)) {
                    throw new IllegalArgumentException("is too large");
                }
                return n << shift;
            }

            @Override
            public String format(Long bytes) {
                String[] names = {"T", "G", "M", "K"};
                int[] shifts = {40, 30, 20, 10};
                for (int i = 0; i < shifts.length; i++) {
                    long unit = 1L << shifts[i];
                    if (bytes != 0 && bytes % unit == 0) {
                        return bytes / unit + names[i];
                    }
                }
                return Long.toString(bytes);
            }
        };
    }

    /** One of an enum's constants, written in lower case. */
    public static <E extends Enum<E>> OptionType<E> choice(Class<E> type) {
        E[] values = type.getEnumConstants();
        StringBuilder names = new StringBuilder();
        for (E e : values) {
            names.append(names.isEmpty() ? "" : "|").append(e.name().toLowerCase(Locale.ROOT));
        }
        return new Simple<>("<" + names + ">") {
            @Override
            public E parse(String text) {
                for (E e : values) {
                    if (e.name().equalsIgnoreCase(text.trim())) {
                        return e;
                    }
                }
                throw new IllegalArgumentException(
                        "must be one of " + names.toString().replace("|", ", "));
            }

            @Override
            public String format(E value) {
                return value.name().toLowerCase(Locale.ROOT);
            }
        };
    }

    /** Repeatable: every occurrence adds one element. */
    public static <E> OptionType<List<E>> repeatable(OptionType<E> element) {
        return new OptionType<>() {
            @Override
            public List<E> parse(String text) {
                return List.of(element.parse(text));
            }

            @Override
            public List<E> apply(List<E> current, String text, ConfigSource source) {
                List<E> more = new ArrayList<>(current);
                more.add(element.apply(null, text, source));
                return List.copyOf(more);
            }

            @Override
            public String format(List<E> value) {
                return String.join(", ", lines(value));
            }

            @Override
            public List<String> lines(List<E> value) {
                List<String> lines = new ArrayList<>();
                value.forEach(e -> lines.addAll(element.lines(e)));
                return lines;
            }

            @Override
            public String paramLabel() {
                return element.paramLabel();
            }

            @Override
            public Arity arity() {
                return element.arity();
            }

            @Override
            public boolean repeatable() {
                return true;
            }
        };
    }

    /** Absent unless given. */
    public static <E> OptionType<Optional<E>> optional(OptionType<E> element) {
        return new OptionType<>() {
            @Override
            public Optional<E> parse(String text) {
                return Optional.of(element.parse(text));
            }

            @Override
            public Optional<E> apply(Optional<E> current, String text, ConfigSource source) {
                return Optional.of(element.apply(null, text, source));
            }

            @Override
            public String format(Optional<E> value) {
                return value.map(element::format).orElse("");
            }

            @Override
            public List<String> lines(Optional<E> value) {
                return value.map(element::lines).orElse(List.of());
            }

            @Override
            public String paramLabel() {
                return element.paramLabel();
            }

            @Override
            public Arity arity() {
                return element.arity();
            }
        };
    }

    /** A type formatted with {@code toString()} unless it says otherwise. */
    private abstract static class Simple<V> implements OptionType<V> {
        private final String paramLabel;

        Simple(String paramLabel) {
            this.paramLabel = paramLabel;
        }

        @Override
        public String format(V value) {
            return String.valueOf(value);
        }

        @Override
        public String paramLabel() {
            return paramLabel;
        }
    }
}
