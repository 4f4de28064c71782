package io.tern.hls.packager;

/**
 * The wall clock, injected: program date-times are the wall time at which a segment's first
 * sample arrived, carried forward by the media clock. Tests pass a clock they control.
 */
@FunctionalInterface
public interface WallClock {
    /** Milliseconds since the Unix epoch. */
    long epochMillis();
}
