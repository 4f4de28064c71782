package io.tern.hls.record;

import io.tern.hls.mp4.InitSegmentWriter;
import io.tern.hls.mp4.Mp4Track;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.serve.HlsEvent;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Records one stream as fragmented MP4 files: the same chunks the packager serves, appended to a
 * file that starts with a two-track init segment (video track 1, audio track 2). Pure: it takes
 * the packager's events and says what to do to which file ({@link RecordingAction}); the server
 * does the I/O.
 *
 * <ul>
 *   <li>A file starts at a segment boundary of the leading track (a keyframe), so each file
 *       plays on its own.
 *   <li>It rotates at the first boundary after {@code rotateAfterMs} of media, and whenever a
 *       track's configuration changes (a new init segment needs a new file).
 *   <li>The follower's chunks of segments before the boundary (audio lags video by a frame or
 *       so) still go to the file before, which closes once the follower has passed it. And the
 *       leader's first chunks of a segment wait until the follower's first chunk of it shows
 *       which configuration the follower has there.
 *   <li>A muxed rendition's chunks carry both tracks already, with the same track IDs: they are
 *       appended as they come, and the file is decided at the segment's first chunk.
 * </ul>
 */
public final class StreamRecorder {
    private record File(String path, long firstMsn, long startTicks, Mp4Track video, Mp4Track audio) {}

    /** A leader segment start whose file is not decided until the follower shows up. */
    private record Pending(long msn, long startTicks, long programDateTimeMs, Mp4Track leader, List<byte[]> chunks) {}

    private final String stream;
    private final StreamLayout layout;
    private final long rotateAfterTicks;
    private final ArrayDeque<RecordingAction> actions = new ArrayDeque<>();
    private Mp4Track lastFollower;
    private File current;
    private File closing;
    private Pending pending;
    /** Whether the chunks come from a muxed rendition (both tracks in each). */
    private boolean muxed;

    /**
     * @param stream the stream's name, which names its directory ({@link RecordingLayout})
     * @param rotateAfterMs media per file
     */
    public StreamRecorder(String stream, StreamLayout layout, long rotateAfterMs) {
        if (!RecordingLayout.validStreamName(stream)) {
            throw new IllegalArgumentException("stream name " + stream + " cannot name a recording directory");
        }
        if (rotateAfterMs < 1000) {
            throw new IllegalArgumentException("rotateAfterMs=" + rotateAfterMs + ": must be at least 1000");
        }
        this.stream = stream;
        this.layout = layout;
        this.rotateAfterTicks = MediaTime.fromMillis(rotateAfterMs);
    }

    /** Feeds one packager event; kinds other than chunks and the end are ignored. */
    public void onEvent(HlsEvent event) {
        if (event instanceof HlsEvent.ChunkWritten c) {
            onChunk(c);
        } else if (event instanceof HlsEvent.StreamEnded) {
            if (pending != null) {
                decide(lastFollower);
            }
            closeAll();
        }
    }

    /** The next action, or null. */
    public RecordingAction poll() {
        return actions.pollFirst();
    }

    /** Paths being written: retention must not delete them. */
    public List<String> openPaths() {
        List<String> out = new ArrayList<>(2);
        if (closing != null) {
            out.add(closing.path());
        }
        if (current != null) {
            out.add(current.path());
        }
        return out;
    }

    private boolean twoTracks() {
        return layout.hasVideo() && layout.hasAudio();
    }

    private void onChunk(HlsEvent.ChunkWritten c) {
        // The file writer runs on its own thread, maybe after the packager has released the chunk:
        // it gets a copy of the bytes, which dies young once written.
        byte[] bytes = c.chunk().toArray();
        boolean leader = c.track() == layout.leader();
        muxed = c.mp4Tracks().size() == 2;
        if (leader) {
            if (c.startsSegment()) {
                if (pending != null) {
                    decide(lastFollower); // the follower had nothing in that segment
                }
                pending = new Pending(
                        c.msn(),
                        c.startTicks(),
                        c.programDateTimeMs(),
                        c.mp4Tracks().get(0),
                        new ArrayList<>());
                if (muxed) {
                    pending.chunks().add(bytes);
                    decide(c.mp4Tracks().get(1));
                    return;
                }
                if (!twoTracks()) {
                    pending.chunks().add(bytes);
                    decide(null);
                    return;
                }
            }
            if (pending != null) {
                pending.chunks().add(bytes);
            } else if (current != null) {
                append(current, bytes);
            }
            return;
        }
        Mp4Track track = c.mp4Tracks().get(0);
        if (pending != null && c.msn() >= pending.msn()) {
            decide(track);
        }
        lastFollower = track;
        if (current == null) {
            return;
        }
        if (c.msn() < current.firstMsn()) {
            if (closing != null) {
                append(closing, bytes);
            }
            return;
        }
        if (closing != null) {
            close(closing); // the follower has reached the new file
            closing = null;
        }
        if (Objects.equals(current.audio(), track) || Objects.equals(current.video(), track)) {
            append(current, bytes);
        }
    }

    /** Opens a new file at the pending segment start if it needs one, then writes its chunks. */
    private void decide(Mp4Track follower) {
        Pending p = pending;
        pending = null;
        Mp4Track video = layout.leader() == TrackType.VIDEO ? p.leader() : follower;
        Mp4Track audio = layout.leader() == TrackType.AUDIO ? p.leader() : follower;
        boolean rotate = current == null
                || !Objects.equals(video, current.video())
                || !Objects.equals(audio, current.audio())
                || p.startTicks() - current.startTicks() >= rotateAfterTicks;
        if (rotate) {
            if (closing != null) {
                close(closing);
            }
            // A separate follower's chunks of the segments before still go to the file before.
            closing = twoTracks() && !muxed ? current : null;
            if (current != null && closing == null) {
                close(current);
            }
            List<Mp4Track> tracks = new ArrayList<>(2);
            if (video != null) {
                tracks.add(video);
            }
            if (audio != null) {
                tracks.add(audio);
            }
            String path = RecordingLayout.path(stream, p.programDateTimeMs());
            current = new File(path, p.msn(), p.startTicks(), video, audio);
            actions.addLast(new RecordingAction.Open(
                    path, InitSegmentWriter.write(tracks, InitSegmentWriter.FRAGMENTED_BRANDS)));
        }
        for (byte[] chunk : p.chunks()) {
            append(current, chunk);
        }
    }

    private void append(File f, byte[] chunk) {
        actions.addLast(new RecordingAction.Append(f.path(), chunk));
    }

    private void close(File f) {
        actions.addLast(new RecordingAction.Close(f.path()));
    }

    private void closeAll() {
        if (closing != null) {
            close(closing);
            closing = null;
        }
        if (current != null) {
            close(current);
            current = null;
        }
    }
}
