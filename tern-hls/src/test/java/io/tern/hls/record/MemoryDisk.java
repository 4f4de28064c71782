package io.tern.hls.record;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Applies recording actions to files in memory, checking they come in a valid order. */
final class MemoryDisk {
    final Map<String, ByteArrayOutputStream> files = new LinkedHashMap<>();
    final List<String> open = new ArrayList<>();
    final List<String> closed = new ArrayList<>();

    void apply(StreamRecorder recorder) {
        for (RecordingAction a; (a = recorder.poll()) != null; ) {
            switch (a) {
                case RecordingAction.Open o -> {
                    if (files.containsKey(o.path())) {
                        throw new IllegalStateException("opened twice: " + o.path());
                    }
                    ByteArrayOutputStream f = new ByteArrayOutputStream();
                    f.writeBytes(o.initSegment());
                    files.put(o.path(), f);
                    open.add(o.path());
                }
                case RecordingAction.Append ap -> {
                    if (!open.contains(ap.path())) {
                        throw new IllegalStateException("append to a file not open: " + ap.path());
                    }
                    files.get(ap.path()).writeBytes(ap.bytes());
                }
                case RecordingAction.Close c -> {
                    if (!open.remove(c.path())) {
                        throw new IllegalStateException("close of a file not open: " + c.path());
                    }
                    closed.add(c.path());
                }
            }
        }
    }

    byte[] bytes(String path) {
        return files.get(path).toByteArray();
    }
}
