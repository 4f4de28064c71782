package io.tern.server.origin.record;

import io.tern.hls.record.ByteSource;
import io.tern.hls.record.FragmentedMp4Tail;
import io.tern.hls.record.RecordingFile;
import io.tern.hls.record.RecordingLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The recording directory on disk: the listing retention works from, and the repair that runs at
 * start, before anything is served or listed, so that a file a crash or {@code kill -9} left with a
 * torn last fragment is cut back to its last complete one ({@link FragmentedMp4Tail}), and a file
 * without one complete fragment (no whole header, or the header alone) is removed. Blocking I/O: call it off the event loops.
 */
public final class RecordingStore {
    private static final System.Logger LOG = System.getLogger("tern.origin");

    /**
     * What {@link #repair} did: of {@code files} recordings, {@code truncated} were cut back to
     * their last complete fragment, {@code removed} deleted for holding none ({@code initOnly} of
     * them had a whole init segment and nothing after it), {@code bytesCut} the bytes cut off the truncated ones.
     */
    public record Repair(int files, int truncated, int removed, int initOnly, long bytesCut) {}

    private final Path root;

    public RecordingStore(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    /** Creates the directory if needed; a directory that cannot be written is an error at start. */
    public void prepare() throws IOException {
        Files.createDirectories(root);
        if (!Files.isWritable(root)) {
            throw new IOException("the recording directory " + root + " is not writable");
        }
    }

    /** Every recording under the directory whose name is one of ours. */
    public List<RecordingFile> list() throws IOException {
        List<RecordingFile> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return out;
        }
        try (Stream<Path> files = Files.walk(root, 3)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                RecordingFile parsed = RecordingLayout.parse(relative, sizeOf(file));
                if (parsed != null) {
                    out.add(parsed);
                }
            }
        }
        return out;
    }

    /**
     * Cuts every recording back to its last complete fragment, and removes those left with no
     * fragment: a file without a whole header, or one killed before its first fragment completed,
     * which holds only the init segment ({@code ftyp} + {@code moov}) and nothing a player or
     * ffmpeg can decode ("Cannot determine format"), so it is neither kept nor listed.
     */
    public Repair repair() throws IOException {
        int files = 0;
        int truncated = 0;
        int removed = 0;
        int initOnly = 0;
        long cut = 0;
        for (RecordingFile f : list()) {
            files++;
            Path file = root.resolve(f.path());
            FragmentedMp4Tail.Tail tail;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                long size = channel.size();
                tail = FragmentedMp4Tail.scan(source(channel));
                long keep = tail.completeLength();
                if (tail.fragments() > 0 && keep < size) {
                    channel.truncate(keep);
                    truncated++;
                    cut += size - keep;
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "recording " + f.path() + ": cut " + (size - keep)
                                    + " bytes of an incomplete last fragment (the server stopped while writing it)");
                }
            }
            if (tail.fragments() == 0) {
                Files.delete(file);
                removed++;
                if (tail.completeLength() > 0) {
                    initOnly++;
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "recording " + f.path() + ": removed, only its header was written (the server stopped"
                                    + " before its first fragment completed)");
                } else {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "recording " + f.path() + ": removed, no complete header in it");
                }
            }
        }
        return new Repair(files, truncated, removed, initOnly, cut);
    }

    static ByteSource source(FileChannel channel) {
        return new ByteSource() {
            @Override
            public long size() throws IOException {
                return channel.size();
            }

            @Override
            public int read(long position, byte[] dst, int length) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(dst, 0, length);
                int total = 0;
                while (buffer.hasRemaining()) {
                    int n = channel.read(buffer, position + total);
                    if (n < 0) {
                        break;
                    }
                    total += n;
                }
                return total;
            }
        };
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
