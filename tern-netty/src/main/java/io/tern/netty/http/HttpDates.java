package io.tern.netty.http;

import io.netty.handler.codec.DateFormatter;
import io.netty.util.AsciiString;
import java.time.InstantSource;
import java.util.Date;

/** The {@code Date} header value, formatted once per second and shared by every response of that second. */
final class HttpDates {
    private final InstantSource clock;
    private volatile Formatted current = new Formatted(Long.MIN_VALUE, AsciiString.EMPTY_STRING);

    HttpDates(InstantSource clock) {
        this.clock = clock;
    }

    long nowMs() {
        return clock.millis();
    }

    AsciiString now() {
        long second = Math.floorDiv(clock.millis(), 1000);
        Formatted formatted = current;
        if (formatted.second != second) {
            formatted = new Formatted(second, format(second * 1000));
            current = formatted;
        }
        return formatted.value;
    }

    static AsciiString format(long epochMs) {
        return AsciiString.of(DateFormatter.format(new Date(epochMs)));
    }

    /** Milliseconds since the epoch, or -1 when {@code value} is not an HTTP date. */
    static long parse(String value) {
        if (value == null || value.length() > 64) { // Netty's parser throws past 64 characters
            return -1;
        }
        Date date = DateFormatter.parseHttpDate(value);
        return date == null ? -1 : date.getTime();
    }

    private record Formatted(long second, AsciiString value) {}
}
