package io.tern.server.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The project version, from the Maven-filtered {@code tern-version.properties}. */
public final class TernVersion {
    private static final String VERSION = load();

    private TernVersion() {}

    public static String version() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = TernVersion.class.getResourceAsStream("/io/tern/server/tern-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            final Properties properties = new Properties();
            properties.load(in);
            final String version = properties.getProperty("version", "unknown");
            return version.startsWith("${") ? "unknown" : version;
        } catch (final IOException ex) {
            return "unknown";
        }
    }
}
