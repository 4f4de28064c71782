package io.tern.server.origin.web;

import io.netty.util.AsciiString;
import io.tern.netty.http.SharedBody;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The browser library for peer-assisted delivery (the repository's {@code tern-swarm/src}, and its
 * npm dependency nostr-tools' browser bundle, {@code nostr.bundle.js}), packaged into this jar by the build
 * and served as {@code /_tern/swarm/PATH}. Whatever the build packaged is served, even nothing: the
 * watch page then plays over HTTP alone.
 */
final class SwarmLibrary {
    static final String DIRECTORY = "swarm";
    private static final AsciiString JS = AsciiString.cached("text/javascript; charset=utf-8");

    private SwarmLibrary() {}

    /** Every {@code .js} file of the packaged library, by its path under {@code swarm/}. */
    static Map<String, SharedBody> load() {
        URL dir = SwarmLibrary.class.getResource(DIRECTORY);
        Map<String, byte[]> files = new TreeMap<>();
        if (dir != null) {
            try {
                switch (dir.getProtocol()) {
                    case "file" -> fromDirectory(Path.of(dir.toURI()), files);
                    case "jar" -> fromJar((JarURLConnection) dir.openConnection(), files);
                    default ->
                        throw new IllegalStateException("the swarm library is in a " + dir.getProtocol() + ": URL");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        Map<String, SharedBody> bodies = new TreeMap<>();
        files.forEach((path, bytes) -> bodies.put(path, SharedBody.of(bytes, JS)));
        return Collections.unmodifiableMap(bodies);
    }

    private static void fromDirectory(Path root, Map<String, byte[]> out) throws IOException {
        try (Stream<Path> walk = Files.walk(root, 8)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                String path = root.relativize(file).toString().replace('\\', '/');
                if (path.endsWith(".js")) {
                    out.put(path, Files.readAllBytes(file));
                }
            }
        }
    }

    private static void fromJar(JarURLConnection connection, Map<String, byte[]> out) throws IOException {
        connection.setUseCaches(false);
        String prefix = connection.getEntryName() + "/";
        try (JarFile jar = connection.getJarFile()) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                String name = entry.getName();
                if (!entry.isDirectory() && name.startsWith(prefix) && name.endsWith(".js")) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        out.put(name.substring(prefix.length()), in.readAllBytes());
                    }
                }
            }
        }
    }
}
