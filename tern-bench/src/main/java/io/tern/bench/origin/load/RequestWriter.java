package io.tern.bench.origin.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.tern.bench.origin.viewer.Exchange;
import io.tern.bench.origin.viewer.SkipMode;

/**
 * Writes a viewer's GET request straight into a pooled buffer: the request line, Host, and
 * nothing else (keep-alive is HTTP/1.1's default). Blocking directives are written as digits,
 * with no String built per request.
 */
final class RequestWriter {
    private static final byte[] GET = ascii("GET ");
    private static final byte[] MSN = ascii("_HLS_msn=");
    private static final byte[] PART = ascii("&_HLS_part=");
    private static final byte[] SKIP = ascii("&_HLS_skip=");
    private static final byte[] VERSION_HOST = ascii(" HTTP/1.1\r\nHost: ");
    private static final byte[] END = ascii("\r\n\r\n");

    private final byte[] host;

    RequestWriter(String hostHeader) {
        this.host = ascii(hostHeader);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Upper bound of the request's size, for the buffer. */
    int sizeHint(Exchange ex) {
        return 96 + host.length + ex.path().length();
    }

    void write(Exchange ex, ByteBuf out) {
        out.writeBytes(GET);
        ByteBufUtil.writeAscii(out, ex.path());
        if (ex.blocking()) {
            out.writeByte(ex.path().indexOf('?') < 0 ? '?' : '&');
            out.writeBytes(MSN);
            writeDecimal(out, ex.msn());
            out.writeBytes(PART);
            writeDecimal(out, ex.part());
            if (ex.skip() != SkipMode.NONE) {
                out.writeBytes(SKIP);
                ByteBufUtil.writeAscii(out, ex.skip().value());
            }
        }
        out.writeBytes(VERSION_HOST);
        out.writeBytes(host);
        out.writeBytes(END);
    }

    static void writeDecimal(ByteBuf out, long value) {
        if (value < 0) {
            out.writeByte('-');
            value = -value;
        }
        long divisor = 1;
        while (divisor <= value / 10) {
            divisor *= 10;
        }
        while (divisor > 0) {
            out.writeByte((int) ('0' + (value / divisor) % 10));
            divisor /= 10;
        }
    }
}
