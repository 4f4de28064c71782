package io.tern.server.metrics;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.HttpReply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * One scrape of {@code /metrics}, answered by the Prometheus client's own handler (content
 * negotiation, {@code name[]} filters, gzip) over Tern's {@link HttpExchange}: the handler writes
 * into memory, then the answer goes out as one response. It runs on the metrics endpoint's own
 * loop, so the scrape's work blocks nothing that serves traffic.
 */
final class ScrapeExchange implements PrometheusHttpExchange, PrometheusHttpRequest, PrometheusHttpResponse {
    private final HttpExchange exchange;
    private final List<String[]> headers = new ArrayList<>();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private int status;

    private ScrapeExchange(HttpExchange exchange) {
        this.exchange = exchange;
    }

    static void answer(PrometheusScrapeHandler scrape, HttpExchange exchange) throws IOException {
        ScrapeExchange adapter = new ScrapeExchange(exchange);
        scrape.handleRequest(adapter);
        if (adapter.status == 0) {
            throw new IOException("the Prometheus handler sent no answer");
        }
        // The handler compresses when the scraper asks: Tern's own gzip stays out of it.
        HttpReply reply =
                exchange.reply(HttpResponseStatus.valueOf(adapter.status)).identity();
        for (String[] header : adapter.headers) {
            if (header[0].equalsIgnoreCase("Content-Type")) {
                reply.contentType(header[1]);
            } else if (!header[0].equalsIgnoreCase("Content-Length")) {
                reply.header(header[0], header[1]);
            }
        }
        reply.send(Unpooled.wrappedBuffer(adapter.body.toByteArray()));
    }

    @Override
    public PrometheusHttpRequest getRequest() {
        return this;
    }

    @Override
    public PrometheusHttpResponse getResponse() {
        return this;
    }

    @Override
    public String getRequestPath() {
        return exchange.path();
    }

    @Override
    public String getQueryString() {
        String uri = exchange.uri();
        int query = uri.indexOf('?');
        return query < 0 ? null : uri.substring(query + 1);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        return Collections.enumeration(exchange.headers().getAll(name));
    }

    @Override
    public String getMethod() {
        return exchange.method().name();
    }

    @Override
    public void setHeader(String name, String value) {
        headers.removeIf(h -> h[0].equalsIgnoreCase(name));
        headers.add(new String[] {name, value});
    }

    @Override
    public OutputStream sendHeadersAndGetBody(int statusCode, int contentLength) {
        status = statusCode;
        return body;
    }

    @Override
    public void handleException(IOException e) throws IOException {
        throw e;
    }

    @Override
    public void handleException(RuntimeException e) {
        throw e;
    }

    @Override
    public void close() {}
}
