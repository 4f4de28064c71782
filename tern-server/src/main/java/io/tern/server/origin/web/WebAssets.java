package io.tern.server.origin.web;

import io.netty.util.AsciiString;
import io.tern.netty.http.SharedBody;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The watch page's files, read from the jar once and served from shared buffers: the page, its
 * script and style, and hls.js, which the build takes from npm ({@code src/main/web}, pinned by its
 * lockfile). A build without hls.js cannot make a working page, so it fails here, at start, rather
 * than serving a page that never plays.
 */
public final class WebAssets {
    static final String HLS_JS = "hls/dist/hls.min.js";

    private static final AsciiString HTML = AsciiString.cached("text/html; charset=utf-8");
    private static final AsciiString JS = AsciiString.cached("text/javascript; charset=utf-8");
    private static final AsciiString CSS = AsciiString.cached("text/css; charset=utf-8");
    private static final AsciiString TEXT = AsciiString.cached("text/plain; charset=utf-8");

    /** The watch page for a stream with the swarm on: the same page, told to load the swarm library. */
    static final String SWARM_MARK = "<meta name=\"tern-swarm\" content=\"on\">";

    private final SharedBody watchPage;
    private final SharedBody swarmWatchPage;
    /** The swarm library, by its path under {@code /_tern/swarm/}. */
    private final Map<String, SharedBody> swarm;
    /** By the file name under {@code /_tern/}. */
    private final Map<String, SharedBody> files = new LinkedHashMap<>();

    private WebAssets() {
        byte[] page = read("watch.html");
        watchPage = SharedBody.of(page, HTML);
        String text = new String(page, java.nio.charset.StandardCharsets.UTF_8);
        swarmWatchPage = SharedBody.of(
                text.replace("<meta charset=\"utf-8\">", "<meta charset=\"utf-8\">\n" + SWARM_MARK)
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                HTML);
        swarm = SwarmLibrary.load();
        files.put("watch.js", SharedBody.of(read("watch.js"), JS));
        files.put("tern.css", SharedBody.of(read("tern.css"), CSS));
        files.put("hls.min.js", SharedBody.of(read(HLS_JS), JS));
        files.put("hls.js-LICENSE.txt", SharedBody.of(read("hls/LICENSE"), TEXT));
    }

    /** Loads every file; throws when the build lacks one (hls.js above all). */
    public static WebAssets load() {
        return new WebAssets();
    }

    SharedBody watchPage() {
        return watchPage;
    }

    /** The watch page that loads the swarm library ({@code /_tern/swarm/index.js}) before it plays. */
    SharedBody swarmWatchPage() {
        return swarmWatchPage;
    }

    /** The swarm library's file at {@code path} under {@code /_tern/swarm/}, or null. */
    SharedBody swarmFile(String path) {
        return swarm.get(path);
    }

    /** The swarm library's files, by path (empty when the build packaged none). */
    public java.util.Set<String> swarmFiles() {
        return swarm.keySet();
    }

    /** The file served as {@code /_tern/NAME}, or null. */
    SharedBody file(String name) {
        return files.get(name);
    }

    /** Frees the bodies' direct memory, once the server that serves them has closed. */
    public void release() {
        watchPage.release();
        swarmWatchPage.release();
        swarm.values().forEach(SharedBody::release);
        files.values().forEach(SharedBody::release);
    }

    private static byte[] read(String name) {
        try (InputStream in = WebAssets.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the watch page's " + name + " is not in this build of tern-server"
                        + (name.startsWith("hls/")
                                ? ": hls.js comes from npm at build time; run 'npm ci' in tern-server/src/main/web"
                                        + " (or delete its node_modules) and build again"
                                : ""));
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
