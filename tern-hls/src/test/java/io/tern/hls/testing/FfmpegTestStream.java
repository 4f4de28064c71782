package io.tern.hls.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one live test stream ffmpeg publishes, for the origin's tests and the origin benchmark
 * alike: 720p30 {@code testsrc2} and a {@code sine} tone at 48 kHz, generated in real time
 * ({@code -re}), libx264 (veryfast, zerolatency, a keyframe every second exactly) at 2.5 Mbit/s
 * and AAC at 128 kbit/s. What differs between its users is set here by name: how chatty ffmpeg is,
 * the tone, a capped rate, stereo, the duration and the container (FLV for RTMP, MPEG-TS for SRT).
 */
public final class FfmpegTestStream {
    private final String ffmpeg;
    private String logLevel = "warning";
    private int toneHz = 1000;
    private boolean capRate;
    private boolean stereo;
    private long seconds = -1;
    private String format = "flv";

    private FfmpegTestStream(String ffmpeg) {
        this.ffmpeg = Objects.requireNonNull(ffmpeg, "ffmpeg");
    }

    /** The stream made by the ffmpeg at {@code ffmpeg} (a path, or a name looked up on the PATH). */
    public static FfmpegTestStream of(String ffmpeg) {
        return new FfmpegTestStream(ffmpeg);
    }

    /** ffmpeg's {@code -loglevel} (default {@code warning}). */
    public FfmpegTestStream logLevel(String level) {
        this.logLevel = level;
        return this;
    }

    /** The frequency of the tone (default 1 kHz). */
    public FfmpegTestStream toneHz(int hz) {
        this.toneHz = hz;
        return this;
    }

    /** Holds the video to 2.5 Mbit/s with {@code -maxrate} and a one-second {@code -bufsize}. */
    public FfmpegTestStream capRate() {
        this.capRate = true;
        return this;
    }

    /** Two audio channels ({@code -ac 2}). */
    public FfmpegTestStream stereo() {
        this.stereo = true;
        return this;
    }

    /** Stops after this much media ({@code -t}); without it, runs until ended. */
    public FfmpegTestStream seconds(long duration) {
        this.seconds = duration;
        return this;
    }

    /** The output container: {@code flv} (the default, for RTMP) or {@code mpegts} (SRT). */
    public FfmpegTestStream format(String container) {
        this.format = container;
        return this;
    }

    /** The command line publishing to {@code url}. */
    public List<String> command(String url) {
        List<String> args = new ArrayList<>(List.of(
                ffmpeg,
                "-hide_banner",
                "-nostdin",
                "-loglevel",
                logLevel,
                "-re",
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=1280x720:rate=30",
                "-re",
                "-f",
                "lavfi",
                "-i",
                "sine=frequency=" + toneHz + ":sample_rate=48000",
                "-c:v",
                "libx264",
                "-preset",
                "veryfast",
                "-tune",
                "zerolatency",
                "-pix_fmt",
                "yuv420p",
                "-g",
                "30",
                "-keyint_min",
                "30",
                "-sc_threshold",
                "0",
                "-b:v",
                "2500k"));
        if (capRate) {
            args.addAll(List.of("-maxrate", "2500k", "-bufsize", "2500k"));
        }
        args.addAll(List.of("-c:a", "aac", "-b:a", "128k", "-ar", "48000"));
        if (stereo) {
            args.addAll(List.of("-ac", "2"));
        }
        if (seconds >= 0) {
            args.addAll(List.of("-t", Long.toString(seconds)));
        }
        args.addAll(List.of("-f", format, url));
        return args;
    }
}
