package io.tern.hls.record;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Which recordings to delete: those older than {@code maxAgeMs}, then the oldest until the rest
 * fit in {@code maxTotalBytes}. Files being written are never chosen. A pure decision over a
 * listing; the server deletes.
 *
 * @param maxAgeMs 0 for no age limit
 * @param maxTotalBytes 0 for no size limit
 */
public record RetentionPolicy(long maxAgeMs, long maxTotalBytes) {
    public RetentionPolicy {
        if (maxAgeMs < 0 || maxTotalBytes < 0) {
            throw new IllegalArgumentException("maxAgeMs=" + maxAgeMs + ", maxTotalBytes=" + maxTotalBytes);
        }
    }

    /** The files to delete, oldest first. */
    public List<RecordingFile> toDelete(List<RecordingFile> files, long nowEpochMs, Set<String> open) {
        List<RecordingFile> byAge = new ArrayList<>(files);
        byAge.sort(Comparator.comparingLong(RecordingFile::startEpochMs).thenComparing(RecordingFile::path));
        long total = 0;
        for (RecordingFile f : byAge) {
            total += f.sizeBytes();
        }
        List<RecordingFile> out = new ArrayList<>();
        for (RecordingFile f : byAge) {
            if (open.contains(f.path())) {
                continue;
            }
            boolean tooOld = maxAgeMs > 0 && nowEpochMs - f.startEpochMs() > maxAgeMs;
            boolean tooBig = maxTotalBytes > 0 && total > maxTotalBytes;
            if (tooOld || tooBig) {
                out.add(f);
                total -= f.sizeBytes();
            }
        }
        return out;
    }
}
