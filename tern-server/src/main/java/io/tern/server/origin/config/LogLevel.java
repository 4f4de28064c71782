package io.tern.server.origin.config;

/** {@code log-level}: what the origin logs. */
public enum LogLevel {
    /** Problems only. */
    WARNING,
    /** Also every publish, refusal, recording file and closed ingest connection. */
    INFO,
    /** Also protocol details, for debugging. */
    DEBUG
}
