package io.tern.rtmp.flv;

import io.tern.media.MediaFormatException;
import io.tern.rtmp.bytes.BigEndian;

/**
 * Reads FLV tags (FLV specification 10.1, E.4.1): from a file, for the publishing client and load
 * tools that replay one, and from an RTMP aggregate message, which carries the same tag layout.
 */
public final class FlvFile {
    public static final int TAG_HEADER_BYTES = 11;
    private static final int FILE_HEADER_BYTES = 9;
    private static final int PREVIOUS_TAG_SIZE_BYTES = 4;

    /** Receives each tag's type, timestamp and body {@code buf[offset, offset + length)}. */
    public interface TagVisitor<E extends Exception> {
        void tag(int type, long timestampMs, byte[] buf, int offset, int length) throws E;
    }

    private FlvFile() {}

    /** Reads a whole FLV file: its header, then every tag. Returns the number of tags. */
    public static <E extends Exception> int readFile(byte[] file, TagVisitor<E> visitor)
            throws MediaFormatException, E {
        if (file.length < FILE_HEADER_BYTES + PREVIOUS_TAG_SIZE_BYTES
                || file[0] != 'F'
                || file[1] != 'L'
                || file[2] != 'V') {
            throw new MediaFormatException("not an FLV file");
        }
        long headerBytes = BigEndian.u32(file, 5);
        if (headerBytes < FILE_HEADER_BYTES || headerBytes > file.length - PREVIOUS_TAG_SIZE_BYTES) {
            throw new MediaFormatException("FLV header size " + headerBytes);
        }
        int start = (int) headerBytes + PREVIOUS_TAG_SIZE_BYTES;
        return readTags(file, start, file.length - start, visitor);
    }

    /**
     * Reads consecutive tags, each followed by its previous-tag-size field (which an aggregate
     * message's last tag may omit). Returns the number of tags.
     */
    public static <E extends Exception> int readTags(byte[] buf, int offset, int length, TagVisitor<E> visitor)
            throws MediaFormatException, E {
        int pos = offset;
        int end = offset + length;
        int tags = 0;
        while (end - pos >= TAG_HEADER_BYTES) {
            int type = buf[pos] & 0x1F;
            int size = BigEndian.u24(buf, pos + 1);
            long timestamp = BigEndian.u24(buf, pos + 4) | ((buf[pos + 7] & 0xFFL) << 24);
            int body = pos + TAG_HEADER_BYTES;
            if (size > end - body) {
                throw new MediaFormatException("FLV tag of " + size + " bytes, " + (end - body) + " left");
            }
            visitor.tag(type, timestamp, buf, body, size);
            tags++;
            pos = body + size + Math.min(PREVIOUS_TAG_SIZE_BYTES, end - body - size);
        }
        if (pos != end) {
            throw new MediaFormatException((end - pos) + " bytes after the last FLV tag");
        }
        return tags;
    }
}
