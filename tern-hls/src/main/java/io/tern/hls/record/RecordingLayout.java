package io.tern.hls.record;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where recordings go, relative to the recording directory: one directory per stream, one per
 * UTC day, and a file named by the stream and the wall-clock time of its first sample:
 * {@code cam1/2026-12-01/cam1-20261201T200215.123Z.mp4}. The name alone says what and when, so
 * retention can work from a directory listing.
 */
public final class RecordingLayout {
    private static final Pattern STREAM = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'");
    private static final Pattern FILE = Pattern.compile(
            "(?<stream>[A-Za-z0-9][A-Za-z0-9_.-]{0,63})/\\d{4}-\\d{2}-\\d{2}/\\k<stream>-(?<stamp>\\d{8}T\\d{6}\\.\\d{3}Z)\\.mp4");

    private RecordingLayout() {}

    /** Whether {@code name} can be a stream's directory: no separators, no dot files, no "..". */
    public static boolean validStreamName(String name) {
        return name != null && STREAM.matcher(name).matches() && !name.contains("..");
    }

    /** The relative path of a recording of {@code stream} starting at {@code startEpochMs}. */
    public static String path(String stream, long startEpochMs) {
        if (!validStreamName(stream)) {
            throw new IllegalArgumentException("stream name " + stream + " cannot name a directory");
        }
        LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(startEpochMs), ZoneOffset.UTC);
        return stream + "/" + DAY.format(t) + "/" + stream + "-" + STAMP.format(t) + ".mp4";
    }

    /** The descriptor of a recording at {@code relativePath}, or null if the name is not one of ours. */
    public static RecordingFile parse(String relativePath, long sizeBytes) {
        Matcher m = FILE.matcher(relativePath);
        if (!m.matches()) {
            return null;
        }
        try {
            LocalDateTime t = LocalDateTime.parse(m.group("stamp"), STAMP);
            return new RecordingFile(
                    relativePath, m.group("stream"), t.toInstant(ZoneOffset.UTC).toEpochMilli(), sizeBytes);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
