package io.tern.netty.http;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the HTTP server counts, for Prometheus: requests by kind and status, held requests, bytes
 * served, connections and every refusal. Counted per request or per connection, never per byte
 * written; readable from any thread at scrape time.
 *
 * <p>Labels are bounded: kinds are the ones the routes declare, statuses a fixed list
 * ({@link #STATUSES}, everything else is "other").
 */
public final class HttpCounters {
    /** The status codes counted on their own; any other code is counted under {@link #OTHER_STATUS}. */
    public static final List<Integer> STATUSES =
            List.of(101, 200, 204, 206, 301, 302, 304, 400, 401, 403, 404, 405, 408, 413, 414, 426, 429, 431, 500, 503);

    public static final String OTHER_STATUS = "other";

    /** {@link #STATUSES} unboxed, searched once per response. */
    private static final int[] STATUS_CODES =
            STATUSES.stream().mapToInt(Integer::intValue).toArray();

    /** Things counted once per occurrence. */
    public enum Event {
        CONNECTION_ACCEPTED,
        /** Closed at once: the server's total of open connections is reached. */
        CONNECTION_REJECTED_TOTAL,
        /** Closed at once: the client's IP has its share of connections. */
        CONNECTION_REJECTED_PER_IP,
        HTTP1_CONNECTION,
        /** HTTP/2 chosen by ALPN over TLS. */
        HTTP2_TLS_CONNECTION,
        /** h2c by prior knowledge (the client opened with the HTTP/2 preface). */
        H2C_PRIOR_KNOWLEDGE,
        /** h2c by {@code Upgrade: h2c}. */
        H2C_UPGRADE,
        /** Connections handed to an {@link UpgradeHandler} (WebSocket). */
        PROTOCOL_UPGRADE,
        CLOSED_IDLE,
        /** A request's bytes took longer than the request timeout (slow-loris). */
        CLOSED_SLOW_REQUEST,
        /** The client stopped reading and the write buffer stayed full. */
        CLOSED_SLOW_READER,
        /** Too many pipelined HTTP/1.1 requests behind one being answered. */
        CLOSED_PIPELINE_LIMIT,
        HELD,
        HELD_RELEASED,
        HELD_TIMED_OUT,
        /** The client went away (closed, or reset its stream) while its request was held or streaming. */
        HELD_CANCELLED,
        /** A request that would be held refused with 503: the server holds its total. */
        HELD_REJECTED_TOTAL,
        /** A request that would be held refused with 429: the client's IP holds its share. */
        HELD_REJECTED_PER_IP,
        STREAMED_RESPONSE,
        GZIPPED_RESPONSE,
        NOT_MODIFIED,
        HANDLER_ERROR
    }

    private static final Event[] EVENTS = Event.values();

    private final List<String> kinds;
    private final LongAdder[] requests;
    private final LongAdder[] events = new LongAdder[EVENTS.length];
    private final LongAdder bodyBytes = new LongAdder();
    private final LongAdder heldNow = new LongAdder();
    private final LongAdder connectionsOpen = new LongAdder();

    HttpCounters(List<String> kinds) {
        this.kinds = List.copyOf(kinds);
        this.requests = new LongAdder[kinds.size() * (STATUSES.size() + 1)];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = new LongAdder();
        }
        for (int i = 0; i < events.length; i++) {
            events[i] = new LongAdder();
        }
    }

    /** The request kinds, in label order; the first is "other". */
    public List<String> kinds() {
        return kinds;
    }

    int kindIndex(String kind) {
        int index = kinds.indexOf(kind);
        if (index < 0) {
            throw new IllegalArgumentException("undeclared request kind '" + kind + "'; declared: " + kinds);
        }
        return index;
    }

    void request(int kind, int statusCode) {
        requests[kind * (STATUSES.size() + 1) + statusIndex(statusCode)].increment();
    }

    void add(Event event) {
        events[event.ordinal()].increment();
    }

    void bodyBytes(long bytes) {
        bodyBytes.add(bytes);
    }

    void heldDelta(int delta) {
        heldNow.add(delta);
    }

    void connectionsDelta(int delta) {
        connectionsOpen.add(delta);
    }

    /** Responses of {@code kind} with {@code status} (a code in {@link #STATUSES}, or -1 for "other"). */
    public long requests(String kind, int status) {
        int column = statusIndex(status);
        if (status >= 0 && column == STATUS_CODES.length) {
            throw new IllegalArgumentException("status " + status + " is counted under 'other' (-1)");
        }
        return requests[kindIndex(kind) * (STATUSES.size() + 1) + column].sum();
    }

    /** Responses of {@code kind}, any status. */
    public long requests(String kind) {
        int base = kindIndex(kind) * (STATUSES.size() + 1);
        long sum = 0;
        for (int i = 0; i <= STATUSES.size(); i++) {
            sum += requests[base + i].sum();
        }
        return sum;
    }

    /** Calls {@code visitor} for every non-zero (kind, status) count; status is a code or "other". */
    public void forEachRequestCount(RequestCountVisitor visitor) {
        for (int k = 0; k < kinds.size(); k++) {
            for (int s = 0; s <= STATUSES.size(); s++) {
                long count = requests[k * (STATUSES.size() + 1) + s].sum();
                if (count != 0) {
                    visitor.visit(
                            kinds.get(k),
                            s == STATUSES.size() ? OTHER_STATUS : Integer.toString(STATUSES.get(s)),
                            count);
                }
            }
        }
    }

    public long count(Event event) {
        return events[event.ordinal()].sum();
    }

    /** Response body bytes handed to the transport (full and streamed; HEAD and 304 count none). */
    public long bodyBytes() {
        return bodyBytes.sum();
    }

    /** Requests held now (deferred, or streaming after a deferral). */
    public long heldNow() {
        return heldNow.sum();
    }

    public long connectionsOpen() {
        return connectionsOpen.sum();
    }

    private static int statusIndex(int code) {
        for (int i = 0; i < STATUS_CODES.length; i++) {
            if (STATUS_CODES[i] == code) {
                return i;
            }
        }
        return STATUS_CODES.length;
    }

    @FunctionalInterface
    public interface RequestCountVisitor {
        void visit(String kind, String status, long count);
    }
}
