package io.tern.netty.websocket.autobahn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs after the Autobahn fuzzingclient (Maven verify phase). The plugin writes its report relative
 * to Maven's working directory and judges only each case's "behavior"; this copies the report under
 * the module's target/ and fails the build unless both "behavior" and "behaviorClose" of every case
 * are OK or INFORMATIONAL (NON-STRICT, UNIMPLEMENTED and FAILED all fail).
 */
public final class AutobahnReportCheck {
    private static final Set<String> ACCEPTED = Set.of("OK", "INFORMATIONAL");
    private static final Pattern CASE = Pattern.compile("\"(\\d+(?:\\.\\d+)+)\"\\s*:\\s*\\{([^}]*)}");
    private static final Pattern BEHAVIOR = Pattern.compile("\"behavior\"\\s*:\\s*\"([A-Z_-]+)\"");
    private static final Pattern BEHAVIOR_CLOSE = Pattern.compile("\"behaviorClose\"\\s*:\\s*\"([A-Z_-]+)\"");

    private AutobahnReportCheck() {}

    /** Args: the plugin's report directory, the directory to copy it to. */
    public static void main(String[] args) throws IOException {
        Path source = Path.of(args[0]);
        Path target = Path.of(args[1]);
        Path index = source.resolve("index.json");
        if (!Files.exists(index)) {
            throw new IllegalStateException("no Autobahn report at " + index);
        }
        copyTree(source, target);
        String json = Files.readString(index, StandardCharsets.UTF_8);
        Map<String, Integer> counts = new TreeMap<>();
        StringBuilder failures = new StringBuilder();
        Matcher m = CASE.matcher(json);
        int cases = 0;
        while (m.find()) {
            cases++;
            String behavior = find(BEHAVIOR, m.group(2));
            String behaviorClose = find(BEHAVIOR_CLOSE, m.group(2));
            counts.merge(behavior, 1, Integer::sum);
            if (!ACCEPTED.contains(behavior) || !ACCEPTED.contains(behaviorClose)) {
                failures.append("  ")
                        .append(m.group(1))
                        .append(": behavior=")
                        .append(behavior)
                        .append(" behaviorClose=")
                        .append(behaviorClose)
                        .append('\n');
            }
        }
        String summary = "Autobahn fuzzingclient: " + cases + " cases, by behavior " + counts + "\n";
        Files.writeString(target.resolve("summary.txt"), summary + failures, StandardCharsets.UTF_8);
        System.out.print(summary);
        if (cases == 0 || !failures.isEmpty()) {
            throw new IllegalStateException("Autobahn cases not OK:\n" + failures);
        }
    }

    private static String find(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : "MISSING";
    }

    private static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path dest = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
