package io.tern.server.origin.config;

import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigLines;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.origin.registry.StreamNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code tern origin -c FILE}: one option per line, named as on the command line without the
 * dashes, then {@code [stream NAME]} sections with per-stream settings.
 *
 * <pre>
 * # the server
 * http-port = 8080
 * record-dir = /var/lib/tern/recordings
 *
 * [stream cam1]
 * record = off
 * part-target-ms = 333
 * publish-secret = only-for-cam1
 * </pre>
 *
 * The lines are {@link ConfigLines}' ({@code name = value}, {@code name value} or a bare
 * {@code name} for a flag; {@code #} comments). An unknown option, a server-only option inside a section, or a
 * section header that names no valid stream stops start-up with the file and line.
 */
public final class OriginConfigFile {
    private static final Pattern SECTION = Pattern.compile("\\[\\s*stream\\s+(\\S+)\\s*]");

    private OriginConfigFile() {}

    public static List<Occurrence> read(Path file) {
        return parse(file.toString(), ConfigLines.read(file));
    }

    /** The occurrences of {@code lines}, read as the file {@code fileName}. */
    public static List<Occurrence> parse(String fileName, List<String> lines) {
        List<Occurrence> out = new ArrayList<>();
        ConfigLines.parse(fileName, lines, new ConfigLines.Handler() {
            private String stream;

            @Override
            public void section(String line, ConfigSource source) {
                Matcher m = SECTION.matcher(line);
                if (!m.matches()) {
                    throw new ConfigException(
                            "Invalid section header '" + line + "' (write [stream NAME]) " + source.where());
                }
                stream = m.group(1);
                if (!StreamNames.valid(stream)) {
                    throw new ConfigException("Invalid stream name '" + stream + "' in a section header ("
                            + StreamNames.RULE + ") " + source.where());
                }
            }

            @Override
            public void setting(String name, String value, ConfigSource source) {
                Option<?> option = OriginOptions.byName(name);
                if (option == null) {
                    throw new ConfigException("Unknown option '" + name + "' " + source.where()
                            + " (./tern origin --help lists every option)");
                }
                if (stream != null && option.scope() != Option.Scope.STREAM) {
                    throw new ConfigException("Option '" + name + "' cannot be set per stream ([stream " + stream
                            + "]) " + source.where() + "; move it above the first section");
                }
                out.add(new Occurrence(option, value, source, stream));
            }
        });
        return out;
    }
}
