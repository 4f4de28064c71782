package io.tern.netty.hls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.tern.hls.media.MediaObject;
import io.tern.netty.http.SharedBody;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;

/**
 * The response bodies of one stream, made once and shared by every viewer: each playlist version
 * (the packager's array, by identity: one copy into direct memory) and each complete init
 * segment, part and segment become a {@link SharedBody}, then a retained view per response. A
 * media body copies nothing: it is a composite of retained views of the object's chunks, which
 * live once in the {@link DirectChunkStore} (a segment's chunks are its parts'). Its views keep
 * those chunks alive after the packager releases them, so media bodies are bounded by this
 * stream's cap on the bytes they pin, oldest first; a body that does not fit is served as views
 * of the chunks for that one response. Media the packager no longer serves (out of its window) is
 * let go when the packager says so ({@link #retired}): a stream's cache then pins about its
 * window, not its cap. Confined to the stream's event loop.
 */
final class BodyCache {
    static final String PLAYLIST_TYPE = "application/vnd.apple.mpegurl";
    private static final int PLAYLISTS = 16;

    private final long capBytes;
    private final IdentityHashMap<Object, SharedBody> bodies = new IdentityHashMap<>();
    private final ArrayDeque<Object> playlistOrder = new ArrayDeque<>();
    private final ArrayDeque<MediaObject> mediaOrder = new ArrayDeque<>();
    private long mediaBytes;

    BodyCache(long capBytes) {
        this.capBytes = capBytes;
    }

    /** The shared body of one playlist version (the packager's array, shared by its viewers). */
    SharedBody playlist(byte[] body) {
        SharedBody shared = bodies.get(body);
        if (shared == null) {
            if (playlistOrder.size() >= PLAYLISTS) {
                bodies.remove(playlistOrder.pollFirst()).release();
            }
            shared = SharedBody.of(body, PLAYLIST_TYPE);
            bodies.put(body, shared);
            playlistOrder.addLast(body);
        }
        return shared;
    }

    /** The shared body of a complete object, or null when it does not fit (use {@link #wrap}). */
    SharedBody media(MediaObject object) {
        SharedBody shared = bodies.get(object);
        if (shared != null) {
            return shared;
        }
        long size = object.sizeBytes();
        if (size > capBytes || size > Integer.MAX_VALUE) {
            return null;
        }
        while (mediaBytes + size > capBytes) {
            if (mediaOrder.isEmpty()) {
                return null;
            }
            evictOldest();
        }
        shared = SharedBody.wrap(wrap(object), object.contentType(), -1);
        bodies.put(object, shared);
        mediaOrder.addLast(object);
        mediaBytes += size;
        return shared;
    }

    /** The object's bytes as retained views of its chunks, in order: no copy. */
    static ByteBuf wrap(MediaObject object) {
        int n = object.chunkCount();
        if (n == 1) {
            return DirectChunkStore.view(object.chunk(0));
        }
        CompositeByteBuf composite = Unpooled.compositeBuffer(n);
        for (int i = 0; i < n; i++) {
            composite.addComponent(true, DirectChunkStore.view(object.chunk(i)));
        }
        return composite;
    }

    long mediaBytes() {
        return mediaBytes;
    }

    private void evictOldest() {
        evicted(mediaOrder.pollFirst());
    }

    /**
     * Lets go of an object the packager no longer serves ({@code HlsEvent.ObjectRetired}). The
     * packager retires oldest first, so the object is found near the head of the order.
     */
    void retired(MediaObject object) {
        if (bodies.containsKey(object)) {
            mediaOrder.removeFirstOccurrence(object);
            evicted(object);
        }
    }

    private void evicted(MediaObject object) {
        SharedBody body = bodies.remove(object);
        mediaBytes -= body.length();
        body.release();
    }

    /** Releases everything (the stream is gone); responses still writing keep their views. */
    void clear() {
        while (!mediaOrder.isEmpty()) {
            evictOldest();
        }
        for (Object playlist : playlistOrder) {
            bodies.remove(playlist).release();
        }
        playlistOrder.clear();
    }
}
