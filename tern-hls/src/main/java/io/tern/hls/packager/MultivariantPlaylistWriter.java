package io.tern.hls.packager;

import io.tern.hls.media.Segment;
import io.tern.hls.mp4.Mp4Track;
import io.tern.hls.playlist.AsciiBuffer;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Renders the multivariant playlist (§4.4.6): one variant, the video rendition, with the audio
 * rendition as an {@code EXT-X-MEDIA TYPE=AUDIO} group; or the single rendition of a muxed,
 * video-only or audio-only stream (a muxed one's CODECS name both tracks' formats).
 *
 * <ul>
 *   <li>BANDWIDTH is the sum of the renditions' peak segment bit rates over the listed segments,
 *       AVERAGE-BANDWIDTH the sum of their averages: measured, container overhead included.
 *   <li>CODECS lists every format of the listed segments (§6.2.4), as the streams' own
 *       configurations spell them ({@code avc1.PPCCLL}, {@code mp4a.40.x}).
 *   <li>RESOLUTION and FRAME-RATE come from the SPS (or the measured frame duration).
 * </ul>
 */
final class MultivariantPlaylistWriter {
    static final String AUDIO_GROUP = "audio";

    private final AsciiBuffer out = new AsciiBuffer();
    private final String instanceId;

    MultivariantPlaylistWriter(String instanceId) {
        this.instanceId = instanceId;
    }

    /** @param video the video rendition or null; @param audio the audio rendition or null */
    byte[] render(Rendition video, Rendition audio, double measuredFrameRate) {
        Rendition main = video != null ? video : audio;
        long[] rates = new long[2];
        Set<String> codecs = new LinkedHashSet<>();
        addRates(video, rates, codecs);
        addRates(audio, rates, codecs);

        out.clear();
        out.line("#EXTM3U");
        if (video != null && audio != null) {
            AacConfig aac = (AacConfig) audio.latestInit().track().config();
            out.append("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=")
                    .quoted(AUDIO_GROUP)
                    .append(",NAME=\"audio\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=")
                    .quoted(Integer.toString(aac.channels() == 0 ? 2 : aac.channels()))
                    .append(",URI=")
                    .quoted(instanceId + "/" + ObjectNames.playlist(audio.track))
                    .newline();
        }
        out.append("#EXT-X-STREAM-INF:BANDWIDTH=")
                .append(rates[0])
                .append(",AVERAGE-BANDWIDTH=")
                .append(rates[1])
                .append(",CODECS=")
                .quoted(String.join(",", codecs));
        if (video != null) {
            AvcConfig avc = (AvcConfig) video.latestInit().track().config();
            double fps = avc.frameRate() > 0 ? avc.frameRate() : measuredFrameRate;
            out.append(",RESOLUTION=").append(avc.width()).append('x').append(avc.height());
            if (fps > 0) {
                long milli = Math.round(fps * 1000);
                out.append(",FRAME-RATE=").append(milli / 1000).append('.');
                out.append((char) ('0' + milli % 1000 / 100))
                        .append((char) ('0' + milli % 100 / 10))
                        .append((char) ('0' + milli % 10));
            }
            if (audio != null) {
                out.append(",AUDIO=").quoted(AUDIO_GROUP);
            }
        }
        out.newline().line(instanceId + "/" + ObjectNames.playlist(main.track));
        return out.toBytes();
    }

    /** Adds the rendition's peak and average bit rates (bits/s) and its codecs. */
    private static void addRates(Rendition r, long[] rates, Set<String> codecs) {
        if (r == null) {
            return;
        }
        long peak = 0;
        long bytes = 0;
        long ticks = 0;
        for (int i = 0; i < r.listedCount(); i++) {
            Segment s = r.listed(i);
            long d = Rendition.segmentTicks(s);
            if (d > 0) {
                peak = Math.max(peak, Math.ceilDiv(s.sizeBytes() * 8 * 90_000, d));
            }
            bytes += s.sizeBytes();
            ticks += d;
            for (Mp4Track t : s.init().tracks()) {
                codecs.add(t.config().codecs());
            }
        }
        for (Mp4Track t : r.latestInit().tracks()) {
            codecs.add(t.config().codecs());
        }
        rates[0] += peak;
        rates[1] += ticks == 0 ? 0 : Math.ceilDiv(bytes * 8 * 90_000, ticks);
    }
}
