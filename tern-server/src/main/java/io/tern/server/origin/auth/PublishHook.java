package io.tern.server.origin.auth;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code --on-publish URL}: asks an HTTP service whether a publisher may publish. It POSTs
 *
 * <pre>
 * {"protocol":"rtmp","app":"live","name":"cam1","remoteAddress":"203.0.113.7","remotePort":50122,"query":"token=...&amp;x=1"}
 * </pre>
 *
 * ({@code Content-Type: application/json}) and allows publishing only on a 2xx answer. Any other
 * status, a connection error, or no answer within the timeout refuses. Asynchronous
 * ({@link HttpClient#sendAsync}): no ingest thread waits.
 */
public final class PublishHook {
    private final URI uri;
    private final Duration timeout;
    private final HttpClient client;

    public PublishHook(URI uri, Duration timeout) {
        this.uri = Objects.requireNonNull(uri, "uri");
        String scheme = uri.getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("--on-publish must be an http:// or https:// URL, got " + uri);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the --on-publish timeout must be positive, got " + timeout);
        }
        this.timeout = timeout;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build();
    }

    /** Completes with the hook's decision, never exceptionally. */
    public CompletableFuture<PublishDecision> ask(PublishRequest request) {
        HttpRequest post = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json(request)))
                .build();
        return client.sendAsync(post, HttpResponse.BodyHandlers.discarding())
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((response, failure) -> {
                    if (failure != null) {
                        return PublishDecision.refuse("on-publish hook failed: " + describe(failure));
                    }
                    int status = response.statusCode();
                    return status / 100 == 2
                            ? PublishDecision.allow()
                            : PublishDecision.refuse("on-publish hook answered " + status);
                });
    }

    private String describe(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
        if (cause instanceof java.util.concurrent.TimeoutException
                || cause instanceof java.net.http.HttpTimeoutException) {
            return "no answer within " + timeout.toMillis() + " ms";
        }
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    /** The request's JSON document. */
    static String json(PublishRequest request) {
        return "{\"protocol\":" + quote(request.protocol())
                + ",\"app\":" + quote(request.app())
                + ",\"name\":" + quote(request.name())
                + ",\"remoteAddress\":" + quote(request.remote().getAddress().getHostAddress())
                + ",\"remotePort\":" + request.remote().getPort()
                + ",\"query\":" + quote(request.query()) + "}";
    }

    /** A JSON string literal (RFC 8259 §7). */
    static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
