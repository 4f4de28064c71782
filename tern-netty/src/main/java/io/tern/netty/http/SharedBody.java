package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import io.netty.util.IllegalReferenceCountException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * An immutable response body shared by every request that serves it: a part, a segment, an init
 * segment or a playlist version. Its bytes live once, in direct memory (so the epoll transport
 * sends them without the copy it makes of heap buffers), and each response writes a retained
 * duplicate: serving N viewers costs N small buffer views, never N copies.
 *
 * <p>A compressible body also keeps its gzip form, made once on first use, and both have a strong
 * {@code ETag} (length and CRC-32C of the bytes) computed once.
 *
 * <p>The creator owns one reference and calls {@link #release()} when the object leaves its window.
 * Code that hands the body to another event loop {@link #retain() retains} it first and releases it
 * there once the response has taken its view, because the creator may release it in between. The
 * memory is freed once every holder has released it and the last response still being written has
 * let go of its view.
 */
public final class SharedBody {
    private final ByteBuf content;
    private final AsciiString contentType;
    private final boolean compressible;
    private final long lastModifiedMs;
    private final AsciiString etag;
    /** {@code Content-Length} of the identity form, formatted once rather than per response. */
    private final AsciiString contentLength;

    private final Object gzipLock = new Object();
    private final AtomicInteger holders = new AtomicInteger(1);
    private volatile ByteBuf gzipped;
    private volatile AsciiString gzippedEtag;
    private volatile AsciiString gzippedContentLength;

    private SharedBody(ByteBuf content, CharSequence contentType, long lastModifiedMs) {
        this.content = content;
        this.contentType = AsciiString.of(Objects.requireNonNull(contentType, "contentType"));
        this.compressible = Gzip.isCompressible(this.contentType);
        this.lastModifiedMs = lastModifiedMs;
        this.etag = etagOf(content, "");
        this.contentLength = lengthOf(content);
    }

    /** Copies {@code bytes} once into direct memory. */
    public static SharedBody of(byte[] bytes, CharSequence contentType) {
        return of(bytes, 0, bytes.length, contentType, -1);
    }

    /**
     * Copies the range once into direct memory.
     *
     * @param lastModifiedMs wall-clock time the object was made, for {@code Last-Modified}; -1 for none
     */
    public static SharedBody of(byte[] bytes, int offset, int length, CharSequence contentType, long lastModifiedMs) {
        ByteBuf direct = Unpooled.directBuffer(length, length).writeBytes(bytes, offset, length);
        return new SharedBody(direct.asReadOnly(), contentType, lastModifiedMs);
    }

    /** UTF-8 text (a playlist, a JSON document, a page). */
    public static SharedBody utf8(CharSequence text, CharSequence contentType) {
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        return of(bytes, 0, bytes.length, contentType, -1);
    }

    /** Takes ownership of {@code content} without copying; it must never be written to again. */
    public static SharedBody wrap(ByteBuf content, CharSequence contentType, long lastModifiedMs) {
        return new SharedBody(content.asReadOnly(), contentType, lastModifiedMs);
    }

    public int length() {
        return content.readableBytes();
    }

    public AsciiString contentType() {
        return contentType;
    }

    public boolean compressible() {
        return compressible;
    }

    /** -1 when unknown. */
    public long lastModifiedMs() {
        return lastModifiedMs;
    }

    /** The strong entity tag of the identity form, quotes included. */
    public AsciiString etag() {
        return etag;
    }

    /** A view of the bytes for one response, which releases it; the bytes are not copied. */
    public ByteBuf retainedContent() {
        return content.retainedDuplicate();
    }

    /** The bytes themselves, for reading (tests, checksums); not retained. */
    public ByteBuf content() {
        return content.duplicate();
    }

    /** A view of the gzip form for one response, made on first use. */
    ByteBuf retainedGzipped() {
        return gzipForm().retainedDuplicate();
    }

    AsciiString gzippedEtag() {
        gzipForm();
        return gzippedEtag;
    }

    AsciiString contentLength() {
        return contentLength;
    }

    AsciiString gzippedContentLength() {
        gzipForm();
        return gzippedContentLength;
    }

    private ByteBuf gzipForm() {
        ByteBuf form = gzipped;
        if (form == null) {
            synchronized (gzipLock) {
                if (holders.get() == 0) {
                    throw new IllegalReferenceCountException(0);
                }
                form = gzipped;
                if (form == null) {
                    ByteBuf heap = Gzip.compress(content.duplicate());
                    ByteBuf direct = Unpooled.directBuffer(heap.readableBytes(), heap.readableBytes())
                            .writeBytes(heap)
                            .asReadOnly();
                    heap.release();
                    gzippedEtag = etagOf(direct, "-gz");
                    gzippedContentLength = lengthOf(direct);
                    gzipped = form = direct;
                }
            }
        }
        return form;
    }

    /** Takes one more holder's reference, for a hand-off to another event loop. */
    public SharedBody retain() {
        for (int n = holders.get(); ; n = holders.get()) {
            if (n == 0) {
                throw new IllegalReferenceCountException(0, 1);
            }
            if (holders.compareAndSet(n, n + 1)) {
                return this;
            }
        }
    }

    /** Gives up one holder's reference (the creator's, or one taken by {@link #retain()}). */
    public void release() {
        int left = holders.decrementAndGet();
        if (left > 0) {
            return;
        }
        if (left < 0) {
            holders.incrementAndGet();
            throw new IllegalReferenceCountException(0, -1);
        }
        content.release();
        synchronized (gzipLock) {
            if (gzipped != null) {
                gzipped.release();
            }
        }
    }

    /**
     * References to the bytes held now: one while any holder has not released it, plus every
     * response still writing it.
     */
    public int refCnt() {
        return content.refCnt();
    }

    private static AsciiString lengthOf(ByteBuf bytes) {
        return AsciiString.cached(Integer.toString(bytes.readableBytes()));
    }

    private static AsciiString etagOf(ByteBuf bytes, String suffix) {
        CRC32C crc = new CRC32C();
        for (ByteBuffer part : bytes.nioBuffers()) { // a composite's parts, not a merged copy
            crc.update(part);
        }
        return AsciiString.of("\"" + Integer.toHexString(bytes.readableBytes()) + "-" + Long.toHexString(crc.getValue())
                + suffix + "\"");
    }
}
