package io.tern.hls.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetentionPolicyTest {
    private static final long DAY = 86_400_000L;
    private static final long NOW = 1_764_619_200_000L;

    private static RecordingFile file(String stream, long ageMs, long bytes) {
        return RecordingLayout.parse(RecordingLayout.path(stream, NOW - ageMs), bytes);
    }

    @Test
    void filesOlderThanTheMaximumAgeGo() {
        List<RecordingFile> files = List.of(file("a", 3 * DAY, 10), file("a", DAY / 2, 10), file("b", 2 * DAY, 10));
        List<RecordingFile> gone = new RetentionPolicy(DAY, 0).toDelete(files, NOW, Set.of());
        assertThat(gone).containsExactly(files.get(0), files.get(2));
    }

    @Test
    void theOldestGoUntilTheRestFitsTheTotalSize() {
        RecordingFile oldest = file("a", 5_000, 400);
        RecordingFile middle = file("b", 4_000, 400);
        RecordingFile newest = file("a", 3_000, 400);
        List<RecordingFile> gone = new RetentionPolicy(0, 900).toDelete(List.of(newest, middle, oldest), NOW, Set.of());
        assertThat(gone).containsExactly(oldest);
        assertThat(new RetentionPolicy(0, 500).toDelete(List.of(newest, middle, oldest), NOW, Set.of()))
                .containsExactly(oldest, middle);
    }

    @Test
    void aFileBeingWrittenIsNeverDeleted() {
        RecordingFile writing = file("a", 3 * DAY, 1_000);
        RecordingFile other = file("b", 1_000, 1_000);
        List<RecordingFile> gone =
                new RetentionPolicy(DAY, 500).toDelete(List.of(writing, other), NOW, Set.of(writing.path()));
        assertThat(gone).containsExactly(other);
    }

    @Test
    void theLayoutNamesTheStreamAndTheStartTimeAndParsesBack() {
        String path = RecordingLayout.path("cam-1.main", 1_764_619_215_123L);
        assertThat(path).isEqualTo("cam-1.main/2025-12-01/cam-1.main-20251201T200015.123Z.mp4");
        RecordingFile f = RecordingLayout.parse(path, 42);
        assertThat(f).isEqualTo(new RecordingFile(path, "cam-1.main", 1_764_619_215_123L, 42));
        assertThat(RecordingLayout.parse("cam/2025-12-01/other-20251201T200015.123Z.mp4", 1))
                .isNull();
        assertThat(RecordingLayout.parse("cam/2025-12-01/cam-2025.mp4", 1)).isNull();
        assertThat(RecordingLayout.validStreamName("..")).isFalse();
        assertThat(RecordingLayout.validStreamName("a..b")).isFalse();
    }
}
