package io.tern.hls.packager;

/**
 * One media sequence number of the stream: where the leader cut it, and in which epoch. Every
 * rendition's segment of that number starts there (the follower at the nearest frame), so
 * segments line up across renditions and so do their discontinuities.
 *
 * @param startTicks output-timeline 90 kHz ticks
 */
record SegmentSlot(long msn, long startTicks, Epoch epoch) {}
