package io.tern.server.origin.record;

import io.tern.hls.record.RecordingAction;
import io.tern.hls.record.RecordingFile;
import io.tern.hls.record.RetentionPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes every stream's recording actions on one thread of its own, so that file I/O never runs on
 * an event loop. The queue is bounded by bytes: {@link #offer} refuses what does not fit, and the
 * stream then drops its recording and resumes it later ({@code StreamRecording}), so a slow disk
 * costs recorded media, never live latency. After each closed file, and every minute, the
 * retention policy deletes the oldest recordings past the age and size limits.
 */
public final class RecordingWriter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern.origin");
    private static final long RETENTION_EVERY_NS = TimeUnit.MINUTES.toNanos(1);
    private static final RecordingAction STOP = new RecordingAction.Close("");

    private final RecordingStore store;
    private final RecordingDisk disk;
    private final long maxQueuedBytes;
    private final RetentionPolicy retention;
    private final InstantSource clock;
    private final LinkedBlockingQueue<RecordingAction> queue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder filesOpened = new LongAdder();
    private final LongAdder filesDeleted = new LongAdder();
    private final LongAdder ioErrors = new LongAdder();
    private final Set<String> failed = new HashSet<>();
    private final Thread thread;
    private long lastRetentionNs;

    public RecordingWriter(
            RecordingStore store,
            RecordingDisk disk,
            long maxQueuedBytes,
            RetentionPolicy retention,
            InstantSource clock) {
        this.store = store;
        this.disk = disk;
        this.maxQueuedBytes = maxQueuedBytes;
        this.retention = retention;
        this.clock = clock;
        this.thread = new Thread(this::run, "tern-recording");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues {@code action} unless its bytes would take the queue past its bound; a close always fits.
     * Any thread; the order of one caller's actions is kept.
     */
    public boolean offer(RecordingAction action) {
        long bytes = bytesOf(action);
        if (bytes > 0) {
            long after = queuedBytes.addAndGet(bytes);
            if (after > maxQueuedBytes) {
                queuedBytes.addAndGet(-bytes);
                return false;
            }
        }
        queue.add(action);
        return true;
    }

    public long queuedBytes() {
        return queuedBytes.get();
    }

    public long bytesWritten() {
        return bytesWritten.sum();
    }

    public long filesOpened() {
        return filesOpened.sum();
    }

    public long filesDeleted() {
        return filesDeleted.sum();
    }

    public long ioErrors() {
        return ioErrors.sum();
    }

    public RecordingStore store() {
        return store;
    }

    /** Writes what is queued, closes every file, and stops the thread. */
    @Override
    public void close() {
        queue.add(STOP);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        lastRetentionNs = System.nanoTime();
        while (true) {
            RecordingAction action;
            try {
                action = queue.poll(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                break;
            }
            if (action == STOP) {
                break;
            }
            if (action != null) {
                queuedBytes.addAndGet(-bytesOf(action));
                apply(action);
            }
            if (action instanceof RecordingAction.Close || System.nanoTime() - lastRetentionNs > RETENTION_EVERY_NS) {
                applyRetention();
            }
        }
        for (String path : disk.openPaths()) {
            closeQuietly(path);
        }
    }

    private void apply(RecordingAction action) {
        switch (action) {
            case RecordingAction.Open open -> {
                try {
                    disk.open(open.path(), open.initSegment());
                    failed.remove(open.path());
                    filesOpened.increment();
                    bytesWritten.add(open.initSegment().length);
                    LOG.log(System.Logger.Level.INFO, "recording " + open.path());
                } catch (IOException e) {
                    fail(open.path(), e);
                }
            }
            case RecordingAction.Append append -> {
                if (failed.contains(append.path())) {
                    return;
                }
                try {
                    disk.append(append.path(), append.bytes());
                    bytesWritten.add(append.bytes().length);
                } catch (IOException e) {
                    fail(append.path(), e);
                }
            }
            case RecordingAction.Close close -> {
                failed.remove(close.path());
                closeQuietly(close.path());
            }
        }
    }

    private void fail(String path, IOException e) {
        ioErrors.increment();
        if (failed.add(path)) {
            LOG.log(System.Logger.Level.WARNING, "recording " + path + " stopped: " + e);
        }
        closeQuietly(path);
    }

    private void closeQuietly(String path) {
        try {
            disk.close(path);
        } catch (IOException e) {
            ioErrors.increment();
            LOG.log(System.Logger.Level.WARNING, "recording " + path + ": close failed: " + e);
        }
    }

    private void applyRetention() {
        lastRetentionNs = System.nanoTime();
        if (retention.maxAgeMs() == 0 && retention.maxTotalBytes() == 0) {
            return;
        }
        try {
            List<RecordingFile> files = store.list();
            for (RecordingFile f : retention.toDelete(files, clock.millis(), disk.openPaths())) {
                Files.deleteIfExists(store.root().resolve(f.path()));
                filesDeleted.increment();
                LOG.log(System.Logger.Level.INFO, "recording " + f.path() + " deleted by the retention limits");
            }
        } catch (IOException e) {
            ioErrors.increment();
            LOG.log(System.Logger.Level.WARNING, "recording retention failed: " + e);
        }
    }

    private static long bytesOf(RecordingAction action) {
        return switch (action) {
            case RecordingAction.Open open -> open.initSegment().length;
            case RecordingAction.Append append -> append.bytes().length;
            case RecordingAction.Close close -> 0;
        };
    }
}
