package io.tern.server.origin.registry;

import io.tern.hls.record.RecordingLayout;

/**
 * Which stream names the origin accepts: the same rule for the RTMP (and SRT) name, the URL path
 * and the recording directory, so that every stream can be served and recorded.
 */
public final class StreamNames {
    /** The rule, as error messages state it. */
    public static final String RULE = "1 to 64 of A-Z a-z 0-9 _ . -, starting with a letter or digit";

    /** The application every stream is published under: rtmp://HOST/live/NAME. */
    public static final String APP = "live";

    private StreamNames() {}

    public static boolean valid(String name) {
        return RecordingLayout.validStreamName(name);
    }
}
