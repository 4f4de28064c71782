package io.tern.hls.record;

/** A recording on disk, as retention sees it: its relative path, stream, start and size. */
public record RecordingFile(String path, String stream, long startEpochMs, long sizeBytes) {}
