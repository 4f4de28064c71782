package io.tern.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one ffmpeg test source: 720p30 {@code testsrc2} and a {@code sine} tone at 48 kHz from lavfi,
 * libx264 (veryfast, a keyframe every 30 frames) and AAC. Two starting points: {@link #live} is the
 * stream the origin's tests and benchmark publish in real time; {@link #file} writes a fixture as
 * fast as ffmpeg can. What differs between users is set here by name.
 */
public final class FfmpegSource {
    private final String ffmpeg;
    private String logLevel = "error";
    private boolean overwrite;
    private boolean realTime;
    private String pictureSize = "1280x720";
    private boolean noise;
    private boolean video = true;
    private boolean audio = true;
    private int toneHz = 440;
    private boolean zeroLatency;
    private boolean fixedGop;
    private int bFrames = -1;
    private String videoBitrate;
    private boolean capRate;
    private String audioBitrate = "128k";
    private boolean audioRate48k;
    private boolean stereo;
    private long seconds = -1;
    private String format = "mpegts";

    private FfmpegSource(String ffmpeg) {
        this.ffmpeg = Objects.requireNonNull(ffmpeg, "ffmpeg");
    }

    /**
     * The live test stream: generated in real time ({@code -re}), zerolatency, a keyframe every
     * second exactly, 2.5 Mbit/s video, a 1 kHz tone at 48 kHz, FLV (for RTMP) unless told.
     */
    public static FfmpegSource live(String ffmpeg) {
        FfmpegSource source = new FfmpegSource(ffmpeg);
        source.logLevel = "warning";
        source.realTime = true;
        source.zeroLatency = true;
        source.fixedGop = true;
        source.videoBitrate = "2500k";
        source.toneHz = 1000;
        source.audioRate48k = true;
        source.format = "flv";
        return source;
    }

    /** A fixture file: as fast as ffmpeg can, overwriting, a 440 Hz tone, MPEG-TS unless told. */
    public static FfmpegSource file(String ffmpeg) {
        FfmpegSource source = new FfmpegSource(ffmpeg);
        source.overwrite = true;
        return source;
    }

    /** ffmpeg's {@code -loglevel}. */
    public FfmpegSource logLevel(String level) {
        this.logLevel = level;
        return this;
    }

    /**
     * A smaller picture, covered in temporal noise at full strength: cheap to decode, yet the
     * encoder spends the whole bit rate on it (for browser tests of several pages on two cores).
     */
    public FfmpegSource noise(int width, int height) {
        this.pictureSize = width + "x" + height;
        this.noise = true;
        return this;
    }

    /** The video bit rate ({@code -b:v}, e.g. {@code 1500k}). */
    public FfmpegSource videoBitrate(String bitrate) {
        this.videoBitrate = bitrate;
        return this;
    }

    /** Only the picture (for an elementary H.264 stream). */
    public FfmpegSource videoOnly() {
        this.audio = false;
        return this;
    }

    /** Only the tone (for an ADTS stream). */
    public FfmpegSource audioOnly() {
        this.video = false;
        return this;
    }

    /** The frequency of the tone. */
    public FfmpegSource toneHz(int hz) {
        this.toneHz = hz;
        return this;
    }

    /** {@code -tune zerolatency}: no B-frames, no lookahead. */
    public FfmpegSource zeroLatency() {
        this.zeroLatency = true;
        return this;
    }

    /** A keyframe every 30 frames exactly: no shorter GOP, no scene-cut keyframes. */
    public FfmpegSource fixedGop() {
        this.fixedGop = true;
        return this;
    }

    /** B-frames between references ({@code -bf}), so that PTS and DTS differ. */
    public FfmpegSource bFrames(int count) {
        this.bFrames = count;
        return this;
    }

    /** Holds the video to its bit rate with {@code -maxrate} and a one-second {@code -bufsize}. */
    public FfmpegSource capRate() {
        this.capRate = true;
        return this;
    }

    /** ffmpeg's default AAC bit rate in place of 128 kbit/s. */
    public FfmpegSource defaultAudioBitrate() {
        this.audioBitrate = null;
        return this;
    }

    /** Two audio channels ({@code -ac 2}). */
    public FfmpegSource stereo() {
        this.stereo = true;
        return this;
    }

    /** Stops after this much media ({@code -t}); without it, runs until ended. */
    public FfmpegSource seconds(long duration) {
        this.seconds = duration;
        return this;
    }

    /** The output container ({@code flv}, {@code mpegts}, {@code h264}, {@code adts}). */
    public FfmpegSource format(String container) {
        this.format = container;
        return this;
    }

    /** The command line writing to {@code output} (a file or a URL). */
    public List<String> command(String output) {
        List<String> args = new ArrayList<>(List.of(ffmpeg, "-hide_banner", "-nostdin", "-loglevel", logLevel));
        if (overwrite) {
            args.add("-y");
        }
        if (video) {
            input(args, "testsrc2=size=" + pictureSize + ":rate=30" + (noise ? ",noise=alls=100:allf=t" : ""));
        }
        if (audio) {
            input(args, "sine=frequency=" + toneHz + ":sample_rate=48000");
        }
        if (video) {
            args.addAll(List.of("-c:v", "libx264", "-preset", "veryfast"));
            if (zeroLatency) {
                args.addAll(List.of("-tune", "zerolatency"));
            }
            args.addAll(List.of("-pix_fmt", "yuv420p", "-g", "30"));
            if (fixedGop) {
                args.addAll(List.of("-keyint_min", "30", "-sc_threshold", "0"));
            }
            if (bFrames >= 0) {
                args.addAll(List.of("-bf", Integer.toString(bFrames)));
            }
            if (videoBitrate != null) {
                args.addAll(List.of("-b:v", videoBitrate));
                if (capRate) {
                    args.addAll(List.of("-maxrate", videoBitrate, "-bufsize", videoBitrate));
                }
            }
        }
        if (audio) {
            args.addAll(List.of("-c:a", "aac"));
            if (audioBitrate != null) {
                args.addAll(List.of("-b:a", audioBitrate));
            }
            if (audioRate48k) {
                args.addAll(List.of("-ar", "48000"));
            }
            if (stereo) {
                args.addAll(List.of("-ac", "2"));
            }
        }
        if (seconds >= 0) {
            args.addAll(List.of("-t", Long.toString(seconds)));
        }
        args.addAll(List.of("-f", format, output));
        return args;
    }

    private void input(List<String> args, String lavfiGraph) {
        if (realTime) {
            args.add("-re");
        }
        args.addAll(List.of("-f", "lavfi", "-i", lavfiGraph));
    }
}
