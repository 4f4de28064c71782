package io.tern.websocket.handshake;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The start line and header fields of an HTTP/1.1 request or response (RFC 9112), as much as the
 * WebSocket opening handshake needs: the client reads the server's answer with it, and in-memory
 * tests read a client's request. Repeated fields are joined with ", " (RFC 9110 §5.3). Servers
 * decode requests with their transport's HTTP codec instead.
 */
public final class HttpHead implements HandshakeRequest {
    private final String startLine;
    private final Map<String, String> fields;

    private HttpHead(String startLine, Map<String, String> fields) {
        this.startLine = startLine;
        this.fields = fields;
    }

    /**
     * Finds the end of the head ({@code CRLF CRLF}) in {@code buf}.
     *
     * @return the number of head bytes including the blank line, or -1 if the head is incomplete
     */
    public static int headLength(byte[] buf, int offset, int length) {
        for (int i = offset + 3; i < offset + length; i++) {
            if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') {
                return i + 1 - offset;
            }
        }
        return -1;
    }

    /**
     * Parses a complete head. Returns null when it is malformed: bad line endings, a field line
     * without a colon, whitespace before the colon, or obsolete line folding.
     */
    public static HttpHead parse(byte[] buf, int offset, int length) {
        String text = new String(buf, offset, length, StandardCharsets.ISO_8859_1);
        if (!text.endsWith("\r\n\r\n")) {
            return null;
        }
        String[] lines = text.substring(0, text.length() - 4).split("\r\n", -1);
        if (lines[0].isEmpty()) {
            return null;
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int colon = line.indexOf(':');
            if (colon <= 0
                    || line.indexOf('\n') >= 0
                    || line.indexOf('\r') >= 0
                    || Character.isWhitespace(line.charAt(0))
                    || Character.isWhitespace(line.charAt(colon - 1))) {
                return null;
            }
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            fields.merge(name, value, (a, b) -> a + ", " + b);
        }
        return new HttpHead(lines[0], fields);
    }

    public String startLine() {
        return startLine;
    }

    /** Of a request head: the start line's first word. */
    @Override
    public String method() {
        return requestLinePart(0);
    }

    /** Of a request head: the start line's second word. */
    @Override
    public String target() {
        return requestLinePart(1);
    }

    /** Of a request head: the start line's third word. */
    @Override
    public String version() {
        return requestLinePart(2);
    }

    private String requestLinePart(int index) {
        String[] parts = startLine.split(" ", -1);
        return parts.length == 3 ? parts[index] : "";
    }

    @Override
    public String field(String name) {
        return fields.get(name.toLowerCase(Locale.ROOT));
    }
}
