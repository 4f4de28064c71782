package io.tern.hls.record;

import java.io.IOException;

/**
 * Random-access reads of a file's bytes, so the tail check reads box headers only and never
 * loads a recording whole. The server implements it over a {@code FileChannel}.
 */
public interface ByteSource {
    long size() throws IOException;

    /** Reads {@code length} bytes at {@code position} into {@code dst}; fewer only at the end. */
    int read(long position, byte[] dst, int length) throws IOException;

    static ByteSource of(byte[] bytes) {
        return new ByteSource() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public int read(long position, byte[] dst, int length) {
                int n = (int) Math.max(0, Math.min(length, bytes.length - position));
                System.arraycopy(bytes, (int) position, dst, 0, n);
                return n;
            }
        };
    }
}
