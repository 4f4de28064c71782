/**
 * Tern's HTTP server: HTTP/1.1 and HTTP/2 on Netty's codecs, shaped for an LL-HLS origin.
 *
 * <h2>Protocols</h2>
 *
 * A plain listener speaks HTTP/1.1 with keep-alive (pipelined requests are answered in order) and
 * h2c, both by prior knowledge (the client opens with the HTTP/2 preface) and by
 * {@code Upgrade: h2c} on the first request. A TLS listener ({@link io.tern.netty.http.HttpTls},
 * BoringSSL through netty-tcnative, the relay's certificate loading and reload) offers h2 and
 * http/1.1 by ALPN. HTTP/2 runs through {@code Http2FrameCodec}, {@code Http2MultiplexHandler} (one
 * child channel per stream) and {@code Http2StreamFrameToHttpObjectCodec}, so the same
 * {@link io.tern.netty.http.HttpExchangeHandler} serves every version.
 *
 * <h2>Routes</h2>
 *
 * <pre>{@code
 * HttpRoutes routes = HttpRoutes.builder()
 *         .get("/live/{stream}/{file}", "hls", exchange -> ...)      // GET, and HEAD for free
 *         .route(Set.of(HttpMethod.DELETE), "/api/v1/streams/{name}", "api", exchange -> ...)
 *         .upgrade("/nostr", "websocket", "nostr", webSocketEndpoint) // takes over the connection
 *         .kinds("playlist", "part", "segment", "init")                 // for exchange.kind(...)
 *         .cors(CorsPolicy.anyOrigin())
 *         .build();
 * HttpServer server = HttpServer.builder(new HttpService(routes, HttpLimits.DEFAULTS))
 *         .listen(new InetSocketAddress(8080))
 *         .listenTls(new InetSocketAddress(8443), HttpTls.load(tlsSettings)::current)
 *         .start();
 * }</pre>
 *
 * Routes are tried in order; {@code {name}} captures one path segment and {@code {name...}} the
 * rest, percent-decoded ({@link io.tern.netty.http.HttpExchange#pathParam}). The server itself
 * answers HEAD, OPTIONS (CORS preflight from the policy), 405 with {@code Allow}, 426 on an
 * upgrade-only path, 404, and 400/413/414/431 for bad or oversized requests. Each route has a
 * <i>kind</i>, the counters' label; a handler may relabel its request among the declared kinds.
 *
 * <h2>Handlers, deferred and streamed responses</h2>
 *
 * A {@link io.tern.netty.http.HttpHandler} runs on the connection's event loop and never blocks.
 * It answers at once ({@code exchange.respond(body, CacheControl.immutable())},
 * {@code exchange.reply(status).contentType(...).send(...)}), or:
 *
 * <ul>
 *   <li><b>defers</b>: {@code exchange.defer(timeout, unit, onTimeout)} holds the request with no
 *       thread (a blocking playlist reload waiting for its part), to be answered later from any
 *       thread. Past the timeout {@code onTimeout} may answer; if it does not, the server answers
 *       503. When the client goes away (connection closed, HTTP/2 stream reset) the exchange is
 *       cancelled and {@code exchange.onCancel(callback)} runs, so the held-request table drops it.
 *       {@code defer} returns false when the held limits refused it (already answered 429/503).
 *       {@code exchange.hold()} holds it the same way but with no timer: for an engine that keeps
 *       the held request and its deadline itself (the LL-HLS packager), so one timeout rules.
 *   <li><b>streams</b>: {@code BodyStream stream = exchange.reply(OK).contentType(...).stream()}
 *       sends the headers now and each {@code stream.write(chunk)} at once (chunked on HTTP/1.1,
 *       DATA frames on HTTP/2), until {@code stream.end()}: the preload-hinted part, served as its
 *       samples arrive. A request may be deferred first and streamed when its part starts.
 * </ul>
 *
 * Bodies shared by many viewers are {@link io.tern.netty.http.SharedBody}s: the bytes live once
 * in direct memory and each response writes a retained duplicate, so N viewers cost N small views
 * and no copies (the epoll transport would copy heap buffers into direct memory per write). A
 * shared text body keeps its gzip form and both strong ETags, made once. The server adds
 * {@code Date}, {@code Content-Length}, {@code Cache-Control} from
 * {@link io.tern.netty.http.CacheControl} ({@code immutable()} for parts, segments and init
 * segments; {@code maxAge(n)} for a blocking reload, whose URL names its part;
 * {@code maxAgeBelow(partTarget)} for plain reloads), CORS, gzip for text types only when the
 * client accepts it (with {@code Vary: Accept-Encoding}), and 304 answers to {@code If-None-Match}
 * and {@code If-Modified-Since}.
 *
 * <h2>Limits</h2>
 *
 * {@link io.tern.netty.http.HttpLimits}: connections in total and per client IP (past them a new
 * connection is closed at once), requests held at once in total (503) and per IP (429, with
 * {@code Retry-After}), URI (414) and header (431) sizes, body size (413), HTTP/2 streams per
 * connection, pipelined requests, the idle timeout (only while nothing is being handled, held or
 * streamed), the request timeout from first byte to complete request (slow-loris: 408 and close,
 * or a reset stream), the slow-reader timeout (write buffer full too long: close) and the TLS
 * handshake timeout. Every refusal and timeout is counted.
 *
 * <h2>Counters</h2>
 *
 * {@link io.tern.netty.http.HttpCounters}, for Prometheus: responses by kind and status (bounded
 * labels), requests held now and held/released/timed out/cancelled/refused, body bytes, connections
 * open and by protocol, and each limit's closes. Plain adders, read at scrape time.
 *
 * <h2>Upgrade hook</h2>
 *
 * An upgrade route hands an HTTP/1.1 connection that asks for its protocol ({@code Upgrade:
 * websocket}, {@code Connection: upgrade}) to an {@link io.tern.netty.http.UpgradeHandler}. Its
 * {@code check(request)} may refuse with a status while the connection is still HTTP; then
 * {@code takeOver(upgrade)} gets the channel with every HTTP handler and timeout removed (TLS and
 * the connection's place in the connection limits stay), the request line and headers (also
 * re-encoded as bytes for an engine that parses its own handshake), and the bytes the client sent
 * after the request. The handler installs its own pipeline and writes its {@code 101} as raw bytes.
 * The WebSocket endpoint ({@code io.tern.netty.websocket.WebSocketEndpoint}) is such a handler:
 * {@code .upgrade("/nostr", "websocket", "nostr", endpoint)} serves WebSocket connections (the
 * Nostr relay) on the HTTP server's port.
 */
package io.tern.netty.http;
