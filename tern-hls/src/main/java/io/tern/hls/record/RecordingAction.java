package io.tern.hls.record;

/** What the recorder asks the server to do to files, in order. Paths are relative. */
public sealed interface RecordingAction {
    /** Create {@code path} (and its directories) and write {@code initSegment}. */
    record Open(String path, byte[] initSegment) implements RecordingAction {}

    /** Append {@code bytes} (a copy of one CMAF chunk, the recorder's own). */
    record Append(String path, byte[] bytes) implements RecordingAction {}

    /** Close {@code path}: it is complete. */
    record Close(String path) implements RecordingAction {}
}
