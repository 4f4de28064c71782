package io.tern.hls.interop;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.testkit.FfmpegSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Real media made by ffmpeg: libx264 720p30 with B-frames and 1 s GOPs as Annex B, and AAC as
 * ADTS, split into access units here the way an MPEG-TS ingest would (start codes, ADTS headers).
 * Raw H.264 carries no timestamps: decode order gives DTS, and the display order the decoder
 * reports (ffprobe's coded picture numbers) gives PTS.
 */
final class RealMedia {
    final AvcConfig avc;
    final AacConfig aac;
    final List<AccessUnit> video;
    final List<AccessUnit> audio;
    /** PTS minus DTS of the first frame: the reorder delay B-frames need. */
    final long videoDelayTicks;

    private RealMedia(AvcConfig avc, AacConfig aac, List<AccessUnit> video, List<AccessUnit> audio, long delay) {
        this.avc = avc;
        this.aac = aac;
        this.video = video;
        this.audio = audio;
        this.videoDelayTicks = delay;
    }

    static RealMedia generate(Path dir, int seconds) throws IOException, MediaFormatException {
        Path h264 = dir.resolve("v.h264");
        Path adts = dir.resolve("a.aac");
        ffmpeg(
                dir,
                FfmpegSource.file("ffmpeg")
                        .videoOnly()
                        .fixedGop()
                        .bFrames(2)
                        .seconds(seconds)
                        .format("h264")
                        .command(h264.toString()));
        ffmpeg(
                dir,
                FfmpegSource.file("ffmpeg")
                        .audioOnly()
                        .stereo()
                        .seconds(seconds)
                        .format("adts")
                        .command(adts.toString()));

        List<List<byte[]>> units = accessUnits(Files.readAllBytes(h264));
        byte[] sps = null;
        byte[] pps = null;
        for (byte[] nal : units.get(0)) {
            int type = nal[0] & 0x1F;
            if (type == 7 && sps == null) sps = nal;
            if (type == 8 && pps == null) pps = nal;
        }
        AvcConfig avc = AvcConfig.fromParameterSets(List.of(sps), List.of(pps));

        int[] display = displayIndexOfCoded(dir, h264, units.size());
        long delay = 0;
        for (int c = 0; c < display.length; c++) {
            delay = Math.max(delay, c - display[c]);
        }
        List<AccessUnit> video = new ArrayList<>();
        for (int c = 0; c < units.size(); c++) {
            ByteArrayOutputStream data = new ByteArrayOutputStream();
            boolean key = false;
            for (byte[] nal : units.get(c)) {
                int type = nal[0] & 0x1F;
                if (type == 7 || type == 8 || type == 9) {
                    continue; // parameter sets live in avcC; no access unit delimiters
                }
                key |= type == 5;
                data.write(nal.length >>> 24);
                data.write(nal.length >>> 16);
                data.write(nal.length >>> 8);
                data.write(nal.length);
                data.writeBytes(nal);
            }
            long dts = c * 3000L;
            long pts = (display[c] + delay) * 3000L;
            video.add(new AccessUnit(TrackType.VIDEO, dts, pts, key, data.toByteArray()));
        }

        byte[] a = Files.readAllBytes(adts);
        AacConfig aac = AacConfig.fromAdts(a, 0, a.length);
        List<AccessUnit> audio = new ArrayList<>();
        for (int pos = 0, i = 0; pos + 7 <= a.length; i++) {
            boolean crc = (a[pos + 1] & 0x01) == 0;
            int length = ((a[pos + 3] & 0x03) << 11) | ((a[pos + 4] & 0xFF) << 3) | ((a[pos + 5] & 0xE0) >>> 5);
            int header = crc ? 9 : 7;
            byte[] frame = Arrays.copyOfRange(a, pos + header, pos + length);
            long dts = i * 1024L * 90_000 / aac.sampleRateHz();
            audio.add(new AccessUnit(TrackType.AUDIO, dts, dts, true, frame));
            pos += length;
        }
        return new RealMedia(avc, aac, video, audio, delay * 3000);
    }

    /** Both tracks in decode-time order, as an ingest delivers them. */
    List<AccessUnit> interleaved() {
        List<AccessUnit> all = new ArrayList<>(video);
        all.addAll(audio);
        all.sort(Comparator.comparingLong(AccessUnit::dts));
        return all;
    }

    /** NAL units grouped into access units: a slice with first_mb_in_slice 0 starts a picture. */
    static List<List<byte[]>> accessUnits(byte[] annexB) {
        List<byte[]> nals = new ArrayList<>();
        int start = -1;
        for (int i = 0; i + 3 <= annexB.length; i++) {
            if (annexB[i] == 0 && annexB[i + 1] == 0 && annexB[i + 2] == 1) {
                if (start >= 0) {
                    nals.add(trimmed(annexB, start, i));
                }
                start = i + 3;
                i += 2;
            }
        }
        if (start >= 0) {
            nals.add(trimmed(annexB, start, annexB.length));
        }
        List<List<byte[]>> units = new ArrayList<>();
        List<byte[]> current = new ArrayList<>();
        List<byte[]> prefix = new ArrayList<>();
        boolean hasSlice = false;
        for (byte[] nal : nals) {
            int type = nal[0] & 0x1F;
            boolean slice = type == 1 || type == 5;
            if (!slice) {
                prefix.add(nal);
                continue;
            }
            boolean firstSliceOfPicture = (nal[1] & 0x80) != 0;
            if (firstSliceOfPicture && hasSlice) {
                units.add(current);
                current = new ArrayList<>();
            }
            current.addAll(prefix);
            prefix.clear();
            current.add(nal);
            hasSlice = true;
        }
        if (hasSlice) {
            units.add(current);
        }
        return units;
    }

    /** A NAL unit without the zero byte of a following 4-byte start code. */
    private static byte[] trimmed(byte[] b, int from, int to) {
        while (to > from && b[to - 1] == 0) {
            to--;
        }
        return Arrays.copyOfRange(b, from, to);
    }

    private static int[] displayIndexOfCoded(Path dir, Path h264, int count) throws IOException {
        Peers.Run run = Peers.run(
                dir,
                List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-select_streams",
                        "v",
                        "-show_entries",
                        "frame=coded_picture_number",
                        "-of",
                        "csv=p=0",
                        h264.toString()));
        if (run.exit() != 0 || !run.err().isBlank()) {
            throw new IOException("ffprobe: " + run.err());
        }
        int[] display = new int[count];
        int shown = 0;
        for (String line : run.out().split("\n")) {
            if (!line.isBlank()) {
                display[Integer.parseInt(line.trim().split(",")[0])] = shown++;
            }
        }
        if (shown != count) {
            throw new IOException("ffprobe shows " + shown + " frames, the stream has " + count);
        }
        return display;
    }

    private static void ffmpeg(Path dir, List<String> command) throws IOException {
        Peers.Run run = Peers.run(dir, command);
        if (run.exit() != 0) {
            throw new IOException("ffmpeg failed: " + run.err());
        }
    }
}
