package io.tern.server.origin.record;

import io.tern.hls.packager.StreamLayout;
import io.tern.hls.record.RecordingAction;
import io.tern.hls.record.StreamRecorder;
import io.tern.hls.serve.HlsEvent;
import io.tern.server.origin.registry.StreamSnapshot;

/**
 * Records one stream: the packager's chunk events go through the {@link StreamRecorder} and its
 * file actions to the {@link RecordingWriter}. When the writer's queue is full the file being
 * written is closed where it stands (every fragment in it is whole), the rest is dropped and
 * counted, and a fresh recorder opens the next file at the next segment start, a keyframe.
 * Confined to the stream's event loop.
 */
public final class StreamRecording {
    private static final System.Logger LOG = System.getLogger("tern.origin");

    private final String stream;
    private final StreamLayout layout;
    private final long rotateMs;
    private final RecordingWriter writer;
    private StreamRecorder recorder;
    private String currentFile;
    private boolean dropping;
    private long bytesOffered;
    private long droppedBytes;
    private long restarts;

    public StreamRecording(String stream, StreamLayout layout, long rotateMs, RecordingWriter writer) {
        this.stream = stream;
        this.layout = layout;
        this.rotateMs = rotateMs;
        this.writer = writer;
        this.recorder = new StreamRecorder(stream, layout, rotateMs);
    }

    /** A packager event; only chunks and the end matter. */
    public void onEvent(HlsEvent event) {
        if (!(event instanceof HlsEvent.ChunkWritten) && !(event instanceof HlsEvent.StreamEnded)) {
            return;
        }
        recorder.onEvent(event);
        for (RecordingAction action; (action = recorder.poll()) != null; ) {
            if (dropping && !(action instanceof RecordingAction.Open)) {
                droppedBytes += bytes(action);
                continue;
            }
            if (!writer.offer(action)) {
                overflow(action);
                continue;
            }
            dropping = false;
            bytesOffered += bytes(action);
            if (action instanceof RecordingAction.Open open) {
                currentFile = open.path();
            } else if (action instanceof RecordingAction.Close close
                    && close.path().equals(currentFile)) {
                currentFile = null;
            }
        }
    }

    private void overflow(RecordingAction refused) {
        droppedBytes += bytes(refused);
        if (dropping) {
            return;
        }
        dropping = true;
        restarts++;
        for (String path : recorder.openPaths()) {
            writer.offer(new RecordingAction.Close(path));
        }
        currentFile = null;
        recorder = new StreamRecorder(stream, layout, rotateMs);
        LOG.log(
                System.Logger.Level.WARNING,
                "recording of " + stream + " is dropping: the disk is not keeping up (" + writer.queuedBytes()
                        + " bytes queued); it resumes in a new file at the next keyframe");
    }

    public StreamSnapshot.Recording snapshot() {
        return new StreamSnapshot.Recording(currentFile, bytesOffered, droppedBytes, restarts);
    }

    public long droppedBytes() {
        return droppedBytes;
    }

    private static long bytes(RecordingAction action) {
        return switch (action) {
            case RecordingAction.Open open -> open.initSegment().length;
            case RecordingAction.Append append -> append.bytes().length;
            case RecordingAction.Close close -> 0;
        };
    }
}
