package io.tern.hls.packager;

import io.tern.hls.media.InitSegment;
import io.tern.hls.media.Part;
import io.tern.hls.media.Segment;
import io.tern.hls.playlist.AsciiBuffer;
import io.tern.hls.playlist.ProgramDateTime;
import io.tern.hls.playlist.SkipRequest;
import io.tern.hls.swarm.SessionEndorsement;
import io.tern.media.MediaTime;
import java.util.List;

/**
 * Renders a rendition's media playlist (draft-pantos-hls-rfc8216bis-22), full or as a delta
 * update. The delta is the full playlist with the segments before the skip boundary, and their
 * tags, replaced by {@code EXT-X-SKIP} (§6.2.5.1), and the version raised to what EXT-X-SKIP needs
 * (§8: 9, or 10 when date ranges are skipped too); nothing else differs.
 *
 * <pre>
 * #EXTM3U
 * #EXT-X-VERSION:6
 * #EXT-X-TARGETDURATION:2
 * #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.0,...,PART-HOLD-BACK=0.62502
 * #EXT-X-PART-INF:PART-TARGET=0.20834
 * #EXT-X-MEDIA-SEQUENCE:5
 * #EXT-X-DISCONTINUITY-SEQUENCE:0
 * #EXT-X-MAP:URI="video-init-0.mp4"
 * #EXT-X-PROGRAM-DATE-TIME:...        per segment
 * #EXT-X-PART:DURATION=0.20000,URI="video-p40.m4s",INDEPENDENT=YES   near the live edge
 * #EXTINF:2.00000,
 * video-5.m4s
 * ...
 * #EXT-X-PRELOAD-HINT:TYPE=PART,URI="video-p61.m4s"                  live only
 * #EXT-X-RENDITION-REPORT:URI="audio.m3u8",LAST-MSN=9,LAST-PART=3
 * </pre>
 *
 * <p>A signed stream (peer-assisted delivery, docs/swarm-protocol.md) also lists its session keys
 * after EXT-X-PART-INF ({@code #EXT-X-TERN-SWARM-SESSION}), and each object's attestation ({@code
 * #EXT-X-TERN-ATTEST}) after its EXT-X-MAP, before its EXT-X-PART, and before a segment's URI
 * line. The lines were written when the objects completed; rendering only copies them.
 */
final class MediaPlaylistWriter {
    static final int BASE_VERSION = 6; // EXT-X-MAP without EXT-X-I-FRAMES-ONLY (§8)
    static final int SKIP_VERSION = 9;
    static final int SKIP_DATERANGES_VERSION = 10;
    /** Complete segments whose parts are listed, besides the open one's. */
    static final int PART_SEGMENTS = 2;

    private final AsciiBuffer out = new AsciiBuffer();
    private final Timing timing;

    MediaPlaylistWriter(Timing timing) {
        this.timing = timing;
    }

    /** Seconds a client may skip: six target durations, the minimum §4.4.3.8 allows. */
    long canSkipUntilS() {
        return 6L * timing.targetDurationS;
    }

    /**
     * @param other the other rendition, for EXT-X-RENDITION-REPORT, or null
     * @param dateRanges the date ranges to show and to report as removed
     * @param sessions the session keys to list, or null for a stream that is not signed
     */
    byte[] render(
            Rendition r,
            Rendition other,
            SkipRequest skip,
            DateRanges dateRanges,
            List<SessionEndorsement> sessions,
            long nowNs) {
        boolean ended = r.ended();
        int listed = r.listedCount();
        long end = listingEndTicks(r);
        int skipped = 0;
        if (skip != SkipRequest.NONE && !ended) {
            long boundary = MediaTime.TICKS_PER_SECOND * canSkipUntilS();
            while (skipped < listed - 1 && end - endTicks(r.listed(skipped)) > boundary) {
                skipped++;
            }
        }
        boolean skipDateRanges = skip == SkipRequest.V2 && !ended;
        int omittedRanges = skipDateRanges ? dateRanges.countAddedBefore(nowNs, canSkipUntilS()) : 0;
        String removedRanges = skipDateRanges ? dateRanges.removedWithin(nowNs, canSkipUntilS()) : "";
        boolean delta = skipped > 0 || omittedRanges > 0 || !removedRanges.isEmpty();
        int version = !delta
                ? BASE_VERSION
                : omittedRanges > 0 || !removedRanges.isEmpty() ? SKIP_DATERANGES_VERSION : SKIP_VERSION;

        out.clear();
        out.line("#EXTM3U");
        out.append("#EXT-X-VERSION:").append(version).newline();
        out.append("#EXT-X-TARGETDURATION:").append(timing.targetDurationS).newline();
        long partTarget = timing.partTargetE5();
        out.append("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=")
                .decimal5(canSkipUntilS() * 100_000)
                .append(",CAN-SKIP-DATERANGES=YES,HOLD-BACK=")
                .decimal5(3L * timing.targetDurationS * 100_000)
                .append(",PART-HOLD-BACK=")
                .decimal5(3 * partTarget)
                .newline();
        out.append("#EXT-X-PART-INF:PART-TARGET=").decimal5(partTarget).newline();
        if (sessions != null) {
            for (int i = 0; i < sessions.size(); i++) {
                out.append(sessions.get(i).tagBytes()).newline();
            }
        }

        Segment open = r.openSegment();
        boolean openListed = open != null && !open.parts().isEmpty();
        Segment first = listed > 0 ? r.listed(0) : open;
        out.append("#EXT-X-MEDIA-SEQUENCE:").append(first.msn()).newline();
        out.append("#EXT-X-DISCONTINUITY-SEQUENCE:")
                .append(first.discontinuitySequence() - (first.discontinuity() ? 1 : 0))
                .newline();
        Segment firstShown = skipped < listed ? r.listed(skipped) : open;
        InitSegment map = firstShown.init();
        mapTag(map);
        dateRanges.appendTags(out, skipDateRanges, nowNs, canSkipUntilS());
        if (delta) {
            out.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=").append(skipped);
            if (!removedRanges.isEmpty()) {
                out.append(",RECENTLY-REMOVED-DATERANGES=").quoted(removedRanges);
            }
            out.newline();
        }
        // §6.2.2: parts further than three target durations from the end SHOULD go. Parts are
        // listed for whole segments: those that lie within the last three target durations, at
        // most the last two complete ones (players use parts only near the live edge, and every
        // listed part is paid for in every playlist reload).
        long partsFrom = end - 3 * timing.targetDurationTicks();
        int partsFromIndex = Math.max(0, listed - PART_SEGMENTS);
        for (int i = skipped; i < listed; i++) {
            Segment s = r.listed(i);
            map = segmentTags(s, map);
            if (i >= partsFromIndex && startTicks(s) >= partsFrom) {
                parts(s);
            }
            out.append("#EXTINF:")
                    .decimal5(Timing.roundE5(s.duration(), s.init().track().timescale()))
                    .append(',')
                    .newline();
            attestation(s.attestationLine());
            out.line(s.name());
        }
        if (openListed) {
            segmentTags(open, map);
            parts(open);
        }
        if (ended) {
            out.line("#EXT-X-ENDLIST");
        } else {
            out.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=")
                    .quoted(r.hintedPart().name())
                    .newline();
        }
        if (other != null && other.lastPart() != null) {
            Part last = other.lastPart();
            out.append("#EXT-X-RENDITION-REPORT:URI=")
                    .quoted(ObjectNames.playlist(other.track))
                    .append(",LAST-MSN=")
                    .append(last.msn())
                    .append(",LAST-PART=")
                    .append(last.index())
                    .newline();
        }
        return out.toBytes();
    }

    /** The tags before a segment's parts; returns the init segment in effect after it. */
    private InitSegment segmentTags(Segment s, InitSegment map) {
        if (s.discontinuity()) {
            out.line("#EXT-X-DISCONTINUITY");
        }
        if (s.init() != map) {
            mapTag(s.init());
        }
        out.append("#EXT-X-PROGRAM-DATE-TIME:");
        ProgramDateTime.append(out, s.programDateTimeMs());
        out.newline();
        return s.init();
    }

    private void mapTag(InitSegment init) {
        out.append("#EXT-X-MAP:URI=").quoted(init.name()).newline();
        attestation(init.attestationLine());
    }

    private void attestation(byte[] line) {
        if (line != null) {
            out.append(line).newline();
        }
    }

    private void parts(Segment s) {
        int timescale = s.init().track().timescale();
        for (Part p : s.parts()) {
            attestation(p.attestationLine());
            out.append("#EXT-X-PART:DURATION=")
                    .decimal5(Timing.roundE5(p.duration(), timescale))
                    .append(",URI=")
                    .quoted(p.name());
            if (p.independent()) {
                out.append(",INDEPENDENT=YES");
            }
            out.newline();
        }
    }

    private static long startTicks(Segment s) {
        return Rendition.ticks(s.startTime(), s.init().track().timescale());
    }

    private static long endTicks(Segment s) {
        return Rendition.ticks(s.startTime() + s.duration(), s.init().track().timescale());
    }

    /** Where the listing ends: the last finished part. */
    static long listingEndTicks(Rendition r) {
        Part last = r.lastPart();
        if (last == null) {
            return 0;
        }
        Segment open = r.openSegment();
        int timescale = open != null && open.msn() == last.msn()
                ? open.init().track().timescale()
                : r.segment(last.msn()).init().track().timescale();
        return Rendition.ticks(last.startTime() + last.duration(), timescale);
    }
}
