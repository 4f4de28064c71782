/**
 * The LL-HLS adapter: {@link io.tern.netty.hls.PackagerDriver} runs one stream's packager (tern-hls)
 * on one event loop, the way the TURN shards run their engines. Input (a frame, a request, the
 * timer) goes in stamped with the loop's time; the packager's outputs are drained until only its
 * next deadline is left; one timer is armed for that deadline, and it is the only timeout a held
 * request has. The driver keeps the one map from the packager's tickets to held exchanges.
 *
 * <p>Beside it: {@link io.tern.netty.hls.DirectChunkStore} keeps the packager's media once, off
 * the heap, within a {@link io.tern.netty.hls.DirectBudget}; {@code BodyCache} makes each playlist
 * version and complete object one shared body of views, let go when the packager retires the
 * object; {@code LoopBatches} and {@link io.tern.netty.hls.Replies} answer exchanges on their own
 * loops. The server (tern-server) wires the registry, auth, recording and metrics around it,
 * through {@link io.tern.netty.hls.ServingCounters} and a media listener.
 */
package io.tern.netty.hls;
