package io.tern.media;

/** The two kinds of elementary stream the origin carries. */
public enum TrackType {
    VIDEO,
    AUDIO
}
