package io.tern.bench.origin.playlist;

/**
 * Resolves a playlist's URI references to request paths on the one origin under test. The
 * generator loads only 127.0.0.1, so an absolute URL naming any other host is refused.
 */
public final class Uris {
    private Uris() {}

    /**
     * {@code reference} resolved against {@code basePath} (the path the playlist was fetched from,
     * query included or not), as an origin-form path with its query, dot segments removed.
     */
    public static String resolve(String basePath, String reference) {
        if (reference.isEmpty()) {
            throw new IllegalArgumentException("empty URI");
        }
        String ref = reference;
        int scheme = ref.indexOf("://");
        if (scheme > 0 && ref.indexOf('/') > scheme) {
            ref = localPath(ref, scheme);
        }
        if (ref.startsWith("/")) {
            return normalise(ref);
        }
        String base = stripQuery(basePath);
        int slash = base.lastIndexOf('/');
        String dir = slash >= 0 ? base.substring(0, slash + 1) : "/";
        return normalise(dir + ref);
    }

    private static String localPath(String url, int scheme) {
        String s = url.substring(0, scheme);
        if (!s.equals("http")) {
            throw new IllegalArgumentException("only http URLs are loaded: " + url);
        }
        int hostStart = scheme + 3;
        int pathStart = url.indexOf('/', hostStart);
        String authority = pathStart < 0 ? url.substring(hostStart) : url.substring(hostStart, pathStart);
        int colon = authority.lastIndexOf(':');
        String host = colon >= 0 ? authority.substring(0, colon) : authority;
        if (!host.equals("127.0.0.1") && !host.equals("localhost")) {
            throw new IllegalArgumentException("the generator loads only 127.0.0.1, not " + url);
        }
        return pathStart < 0 ? "/" : url.substring(pathStart);
    }

    static String stripQuery(String path) {
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    /** Removes "." and ".." segments (RFC 3986 section 5.2.4) from the path part. */
    static String normalise(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String query = q < 0 ? "" : pathAndQuery.substring(q);
        if (!path.contains("/.")) {
            return pathAndQuery;
        }
        String[] segments = path.split("/", -1);
        StringBuilder out = new StringBuilder(path.length());
        java.util.ArrayDeque<String> stack = new java.util.ArrayDeque<>();
        for (int i = 1; i < segments.length; i++) {
            String s = segments[i];
            boolean last = i == segments.length - 1;
            if (s.equals(".")) {
                if (last) {
                    stack.addLast("");
                }
            } else if (s.equals("..")) {
                stack.pollLast();
                if (last) {
                    stack.addLast("");
                }
            } else {
                stack.addLast(s);
            }
        }
        for (String s : stack) {
            out.append('/').append(s);
        }
        if (out.isEmpty()) {
            out.append('/');
        }
        return out.append(query).toString();
    }
}
