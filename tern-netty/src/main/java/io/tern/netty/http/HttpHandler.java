package io.tern.netty.http;

/**
 * Answers requests on a route. Runs on the connection's event loop and must not block: it
 * answers at once ({@link HttpExchange#respond}, {@link HttpExchange#reply}), holds the request
 * to answer later ({@link HttpExchange#defer}), or starts a streamed answer
 * ({@link HttpReply#stream()}). Returning without doing one of these is a bug, answered with 500.
 * An exception is answered with 500 too, if nothing was sent yet.
 */
@FunctionalInterface
public interface HttpHandler {
    void handle(HttpExchange exchange) throws Exception;
}
