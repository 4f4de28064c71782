package io.tern.server.origin.record;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The file operations of recording, behind an interface so that a test can make the disk slow.
 * Used by the {@link RecordingWriter}'s thread only. Paths are relative to the recording directory.
 */
public interface RecordingDisk {
    /** Creates {@code path} (and its directories) and writes {@code init}. */
    void open(String path, byte[] init) throws IOException;

    void append(String path, byte[] bytes) throws IOException;

    void close(String path) throws IOException;

    /** Files open now. */
    Set<String> openPaths();

    /** Files under {@code root}, each written with one channel, appended in order. */
    static RecordingDisk files(Path root) {
        return new RecordingDisk() {
            private final Map<String, FileChannel> open = new HashMap<>();

            @Override
            public void open(String path, byte[] init) throws IOException {
                Path file = root.resolve(path);
                Files.createDirectories(file.getParent());
                FileChannel channel = FileChannel.open(
                        file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
                FileChannel before = open.put(path, channel);
                if (before != null) {
                    before.close();
                }
                write(channel, init);
            }

            @Override
            public void append(String path, byte[] bytes) throws IOException {
                FileChannel channel = open.get(path);
                if (channel == null) {
                    throw new IOException(path + " is not open");
                }
                write(channel, bytes);
            }

            @Override
            public void close(String path) throws IOException {
                FileChannel channel = open.remove(path);
                if (channel != null) {
                    channel.close();
                }
            }

            @Override
            public Set<String> openPaths() {
                return Set.copyOf(open.keySet());
            }

            private void write(FileChannel channel, byte[] bytes) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        };
    }
}
