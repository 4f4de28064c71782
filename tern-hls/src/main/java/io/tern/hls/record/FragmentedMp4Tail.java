package io.tern.hls.record;

import java.io.IOException;

/**
 * Finds where a fragmented MP4 recording stops being whole, so a file cut short by a crash or
 * {@code kill -9} is truncated there on restart and never served or left corrupt.
 *
 * <p>A recording is {@code ftyp}, {@code moov}, then fragments ({@code moof} + {@code mdat}),
 * appended in order. Walking the top-level box headers: a box whose size runs past the end of
 * the file, a {@code moof} without its {@code mdat}, a size of zero ("to the end", never written
 * here) or anything unexpected ends the valid part; the answer is the end of the last complete
 * fragment, or of the {@code moov} when there is none yet, or 0 when even that is incomplete.
 */
public final class FragmentedMp4Tail {
    private FragmentedMp4Tail() {}

    /**
     * The valid part of a recording: where to truncate it (its size when it is whole), and how many
     * complete fragments that leaves. With none, the file is at most an init segment: nothing in it
     * decodes.
     */
    public record Tail(long completeLength, int fragments) {}

    /** The length to truncate the file to (equal to its size when it is whole). */
    public static long completeLength(ByteSource file) throws IOException {
        return scan(file).completeLength();
    }

    /** Walks the top-level boxes once: the length to keep and the complete fragments within it. */
    public static Tail scan(ByteSource file) throws IOException {
        long size = file.size();
        byte[] header = new byte[16];
        long pos = 0;
        long complete = 0;
        int fragments = 0;
        boolean ftyp = false;
        boolean moov = false;
        boolean inFragment = false;
        while (size - pos >= 8) {
            int n = file.read(pos, header, (int) Math.min(16, size - pos));
            if (n < 8) {
                break;
            }
            long boxSize = u32(header, 0);
            int headerBytes = 8;
            if (boxSize == 1) {
                if (n < 16) {
                    break;
                }
                boxSize = (u32(header, 8) << 32) | u32(header, 12);
                headerBytes = 16;
            }
            if (boxSize < headerBytes || boxSize > size - pos) {
                break; // truncated (or a size of 0: open-ended, which is never complete)
            }
            String type = new String(header, 4, 4, java.nio.charset.StandardCharsets.ISO_8859_1);
            long end = pos + boxSize;
            switch (type) {
                case "ftyp" -> {
                    if (pos != 0) {
                        return new Tail(complete, fragments);
                    }
                    ftyp = true;
                }
                case "moov" -> {
                    if (!ftyp || moov) {
                        return new Tail(complete, fragments);
                    }
                    moov = true;
                    complete = end;
                }
                case "moof" -> {
                    if (!moov || inFragment) {
                        return new Tail(complete, fragments);
                    }
                    inFragment = true;
                }
                case "mdat" -> {
                    if (!inFragment) {
                        return new Tail(complete, fragments);
                    }
                    inFragment = false;
                    complete = end;
                    fragments++;
                }
                case "free", "skip", "styp", "sidx", "emsg", "prft" -> {
                    if (moov && !inFragment) {
                        complete = end;
                    }
                }
                default -> {
                    return new Tail(complete, fragments);
                }
            }
            pos = end;
        }
        return new Tail(complete, fragments);
    }

    private static long u32(byte[] b, int p) {
        return ((b[p] & 0xFFL) << 24) | ((b[p + 1] & 0xFFL) << 16) | ((b[p + 2] & 0xFFL) << 8) | (b[p + 3] & 0xFFL);
    }
}
