package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;

/**
 * gzip for text bodies only (playlists, JSON, pages): media is already compressed, and compressing
 * it would cost CPU per viewer for nothing.
 */
final class Gzip {
    /** Below this a gzip header and trailer (18 bytes) eat most of what compression could save. */
    static final int MIN_BYTES = 256;

    private Gzip() {}

    static boolean isCompressible(CharSequence contentType) {
        if (contentType == null) {
            return false;
        }
        AsciiString type = AsciiString.of(contentType).toLowerCase();
        return type.startsWith("text/")
                || type.contains("json")
                || type.contains("mpegurl")
                || type.contains("javascript")
                || type.contains("xml");
    }

    /** Whether {@code acceptEncoding} lets gzip through (a {@code gzip} or {@code *} token with q above 0). */
    static boolean accepted(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        int start = 0;
        int length = acceptEncoding.length();
        while (start < length) {
            int end = acceptEncoding.indexOf(',', start);
            if (end < 0) {
                end = length;
            }
            int semicolon = acceptEncoding.indexOf(';', start);
            int tokenEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
            // The token without surrounding whitespace (as String.trim), compared in place: no
            // substring per request.
            int from = start;
            int to = tokenEnd;
            while (from < to && acceptEncoding.charAt(from) <= ' ') {
                from++;
            }
            while (to > from && acceptEncoding.charAt(to - 1) <= ' ') {
                to--;
            }
            int tokenLength = to - from;
            if ((tokenLength == 4 && acceptEncoding.regionMatches(true, from, "gzip", 0, 4))
                    || (tokenLength == 1 && acceptEncoding.charAt(from) == '*')) {
                return tokenEnd == end || qualityAboveZero(acceptEncoding.substring(tokenEnd + 1, end));
            }
            start = end + 1;
        }
        return false;
    }

    private static boolean qualityAboveZero(String parameters) {
        for (String parameter : parameters.split(";")) {
            String p = parameter.trim();
            if (p.startsWith("q=") || p.startsWith("Q=")) {
                try {
                    return Double.parseDouble(p.substring(2)) > 0;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The gzip form of the readable bytes of {@code in}, which is not released. */
    static ByteBuf compress(ByteBuf in) {
        ByteBuf out = Unpooled.buffer(Math.max(64, in.readableBytes() / 3));
        try (GZIPOutputStream gzip = new GZIPOutputStream(new ByteBufOutputStream(out), 8192);
                ByteBufInputStream source = new ByteBufInputStream(in.duplicate())) {
            source.transferTo(gzip);
        } catch (IOException e) {
            out.release();
            throw new UncheckedIOException("gzip into memory failed", e);
        }
        return out;
    }
}
