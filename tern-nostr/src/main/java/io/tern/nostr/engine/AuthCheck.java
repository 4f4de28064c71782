package io.tern.nostr.engine;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.KindClass;
import io.tern.nostr.event.Tags;
import io.tern.nostr.message.Prefix;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * NIP-42: whether a kind 22242 event (id and signature already verified) authenticates a
 * connection — its challenge, its relay URL and its created_at.
 */
final class AuthCheck {
    private AuthCheck() {}

    /** The OK message refusing the AUTH event, or null when it authenticates the connection. */
    static String problem(Event e, Connection c, String publicUrl, long nowSeconds, long windowSeconds) {
        if (e.kind() != KindClass.CLIENT_AUTH) {
            return Prefix.INVALID.message("AUTH needs a kind 22242 event");
        }
        if (Math.abs(e.createdAt() - nowSeconds) > windowSeconds) {
            return Prefix.INVALID.message(
                    "AUTH event created_at is more than " + windowSeconds + " seconds from the relay's time");
        }
        if (!c.challenge.equals(Tags.firstValue(e.tags(), "challenge", null))) {
            return Prefix.INVALID.message("AUTH challenge does not match this connection's");
        }
        String relay = Tags.firstValue(e.tags(), "relay", null);
        if (relay == null || !relayMatches(relay, publicUrl, c.host)) {
            return Prefix.INVALID.message("AUTH relay URL does not name this relay");
        }
        return null;
    }

    /**
     * Compares a relay tag with the configured public URL (scheme, host, port, path) or, without
     * one, with the host and port the client connected to. Hosts compare case-insensitively, a
     * missing port is the scheme's default, and a trailing slash does not count.
     */
    static boolean relayMatches(String relayTag, String publicUrl, String connectedHost) {
        Endpoint tag = Endpoint.parse(relayTag);
        if (tag == null) {
            return false;
        }
        if (publicUrl != null) {
            Endpoint configured = Endpoint.parse(publicUrl);
            return configured != null
                    && tag.host.equals(configured.host)
                    && tag.port == configured.port
                    && tag.path.equals(configured.path);
        }
        if (connectedHost == null || connectedHost.isEmpty()) {
            return false;
        }
        Endpoint connected = Endpoint.parse("ws://" + connectedHost);
        if (connected == null || !tag.host.equals(connected.host)) {
            return false;
        }
        // The Host header has no scheme: without a port it means the default of the client's scheme.
        return connected.explicitPort ? tag.port == connected.port : !tag.explicitPort || tag.port == tag.defaultPort();
    }

    private record Endpoint(String scheme, String host, int port, boolean explicitPort, String path) {
        static Endpoint parse(String url) {
            try {
                URI u = new URI(url.trim());
                String scheme = u.getScheme() == null ? null : u.getScheme().toLowerCase(Locale.ROOT);
                if (u.getHost() == null || !("ws".equals(scheme) || "wss".equals(scheme))) {
                    return null;
                }
                String path = u.getRawPath() == null ? "" : u.getRawPath();
                while (path.endsWith("/")) {
                    path = path.substring(0, path.length() - 1);
                }
                int defaultPort = "wss".equals(scheme) ? 443 : 80;
                return new Endpoint(
                        scheme,
                        u.getHost().toLowerCase(Locale.ROOT),
                        u.getPort() < 0 ? defaultPort : u.getPort(),
                        u.getPort() >= 0,
                        path);
            } catch (URISyntaxException e) {
                return null;
            }
        }

        int defaultPort() {
            return "wss".equals(scheme) ? 443 : 80;
        }
    }
}
