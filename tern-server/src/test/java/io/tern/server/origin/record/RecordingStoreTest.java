package io.tern.server.origin.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.record.RecordingFile;
import io.tern.hls.record.RecordingLayout;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up repair on hand-made files, as a crash leaves them: one killed before its first
 * fragment completed (the init segment alone, which nothing decodes), one torn mid-fragment, one
 * whole and one without a complete header.
 */
class RecordingStoreTest {
    private static final long START_MS = 1_577_836_800_000L; // 2020-01-01T00:00:00Z

    @TempDir
    Path root;

    @Test
    void initOnlyAndHeaderlessFilesAreRemovedAndATornFragmentIsCut() throws IOException {
        byte[] init = concat(box("ftyp", 16), box("moov", 200));
        byte[] fragment = concat(box("moof", 100), box("mdat", 900));
        byte[] whole = concat(init, fragment, fragment);
        String initOnly = write("a", concat(init, Arrays.copyOf(fragment, 500)));
        String torn = write("b", Arrays.copyOf(whole, whole.length - 300));
        String intact = write("c", whole);
        String headerless = write("d", Arrays.copyOf(init, 100));

        RecordingStore.Repair repair = new RecordingStore(root).repair();

        assertThat(repair)
                .isEqualTo(
                        new RecordingStore.Repair(4, 1, 2, 1, whole.length - 300L - (init.length + fragment.length)));
        assertThat(Files.exists(root.resolve(initOnly)))
                .as("the init segment alone is removed")
                .isFalse();
        assertThat(Files.exists(root.resolve(headerless))).isFalse();
        assertThat(Files.readAllBytes(root.resolve(torn))).isEqualTo(concat(init, fragment));
        assertThat(Files.readAllBytes(root.resolve(intact))).isEqualTo(whole);
        assertThat(new RecordingStore(root).list())
                .as("what the recordings API lists after the repair")
                .extracting(RecordingFile::path)
                .containsExactlyInAnyOrder(torn, intact);
    }

    @Test
    void aFileWithOnlyItsInitSegmentIsRemovedEvenWhenNothingFollowsIt() throws IOException {
        String initOnly = write("cam", concat(box("ftyp", 16), box("moov", 200)));

        RecordingStore.Repair repair = new RecordingStore(root).repair();

        assertThat(repair).isEqualTo(new RecordingStore.Repair(1, 0, 1, 1, 0));
        assertThat(Files.exists(root.resolve(initOnly))).isFalse();
        assertThat(new RecordingStore(root).list()).isEmpty();
    }

    private String write(String stream, byte[] bytes) throws IOException {
        String path = RecordingLayout.path(stream, START_MS);
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        return path;
    }

    /** A top-level box of this type and total size, its payload zeros. */
    private static byte[] box(String type, int size) {
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(size).put(type.getBytes(StandardCharsets.ISO_8859_1));
        return b.array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
